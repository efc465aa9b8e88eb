import type { Transporter } from 'nodemailer';
import { keepOnSuccess } from '../../../shared/keep-on-success.js';
import type { MailTransport, OutgoingMail } from './transport.js';

/** Mail handed to the SMTP server of SMTP_URL. */
export class SmtpTransport implements MailTransport {
  /** nodemailer is loaded, and its pool made, by the first mail: many starts send none. */
  private readonly transporter: () => Promise<Transporter>;
  private made: Transporter | undefined;

  constructor(
    url: string,
    private readonly from: string,
    private readonly publicUrl: string,
  ) {
    this.transporter = keepOnSuccess(async () => {
      const { default: nodemailer } = await import('nodemailer');
      // The timeouts sit beside the URL in one configuration object: a second argument would be
      // defaults for every message, where nodemailer never reads them.
      this.made = nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
      return this.made;
    });
  }

  async send(mail: OutgoingMail) {
    const domain = new URL(this.publicUrl).hostname;
    await (
      await this.transporter()
    ).sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${mail.id}@${domain}>`,
      ...(mail.attachments?.length
        ? {
            attachments: mail.attachments.map(({ filename, contentType, content }) => ({
              filename,
              contentType,
              content,
            })),
          }
        : {}),
    });
  }

  async close() {
    this.made?.close();
  }
}
