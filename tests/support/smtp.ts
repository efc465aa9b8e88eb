import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Arrival order, from 1. */
  seq: number;
  receivedAt: number;
  /** The first recipient, lower-cased. */
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Its attached files, their bytes in base64 (the browser suite writes mails as JSON). */
  attachments: { filename: string; contentType: string; base64: string }[];
}

/**
 * A real SMTP server on loopback that keeps what it receives, for the server suite and the
 * browser suite alike. The app delivers to it as to any mail server; `onMail` sees each parsed
 * mail as it arrives (the browser suite writes it where its workers read).
 */
export class TestSmtpServer {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  constructor(private readonly onMail: (mail: ReceivedMail) => void = () => {}) {}

  async start(port = 0): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
            const mail: ReceivedMail = {
              seq: this.mails.length + 1,
              receivedAt: Date.now(),
              to: (to?.value[0]?.address ?? '').toLowerCase(),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              messageId: parsed.messageId ?? '',
              attachments: parsed.attachments.map((file) => ({
                filename: file.filename ?? '',
                contentType: file.contentType,
                base64: file.content.toString('base64'),
              })),
            };
            this.mails.push(mail);
            this.onMail(mail);
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    return this;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop() {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  mailsTo(email: string) {
    return this.mails.filter((mail) => mail.to === email.toLowerCase());
  }

  /** The 6-digit code of the newest mail to this address. */
  codeFor(email: string): string {
    const mail = this.mailsTo(email).at(-1);
    const code = mail && /Your code: (\d{6})/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  }
}
