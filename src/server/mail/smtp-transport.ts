import nodemailer, { type Transporter } from 'nodemailer';
import type { MailTransport, OutgoingMail } from './transport.js';

/** Mail handed to the SMTP server of SMTP_URL. */
export class SmtpTransport implements MailTransport {
  private readonly transporter: Transporter;

  constructor(
    url: string,
    private readonly from: string,
    private readonly publicUrl: string,
  ) {
    // The timeouts sit beside the URL in one configuration object: a second argument would be
    // defaults for every message, where nodemailer never reads them.
    this.transporter = nodemailer.createTransport({
      url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(mail: OutgoingMail) {
    const domain = new URL(this.publicUrl).hostname;
    await this.transporter.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${mail.id}@${domain}>`,
    });
  }

  async close() {
    this.transporter.close();
  }
}
