import { renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One received mail, as written to the mail folder for the test workers to read. */
export interface ReceivedMail {
  seq: number;
  receivedAt: number;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on loopback. The app delivers to it over SMTP like to any mail server; each
 * parsed mail becomes one JSON file in `mailDir`, named so that a sort by name is arrival order.
 */
export class CapturingSmtpServer {
  private server: SMTPServer | undefined;
  private seq = 0;
  port = 0;

  constructor(private readonly mailDir: string) {}

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
            const mail: ReceivedMail = {
              seq: ++this.seq,
              receivedAt: Date.now(),
              to: (to?.value[0]?.address ?? '').toLowerCase(),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
            };
            // Written aside, then renamed: a reader never sees half a file.
            const file = path.join(this.mailDir, `${String(mail.seq).padStart(6, '0')}.json`);
            writeFileSync(`${file}.tmp`, JSON.stringify(mail));
            renameSync(`${file}.tmp`, file);
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
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
}
