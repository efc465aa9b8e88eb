import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport, OutgoingMail } from './transport.js';

/** A mail as the local mailbox keeps it: DATA_DIR/mail/<id>.json, attachments in base64. */
export interface StoredMail extends Omit<OutgoingMail, 'attachments'> {
  from: string;
  sentAt: string;
  attachments?: { filename: string; contentType: string; base64: string }[];
}

/**
 * Without SMTP_URL, mail is not lost: each message is written to DATA_DIR/mail/<id>.json (written
 * under a temporary name and renamed, so a crash never leaves half a file); in development its text
 * is logged too.
 * The file name is the outbox id, so a re-send overwrites instead of duplicating.
 */
export class LocalMailbox implements MailTransport {
  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    private readonly logText = false,
  ) {}

  async send(mail: OutgoingMail) {
    await mkdir(this.dir, { recursive: true });
    const { attachments, ...rest } = mail;
    const stored: StoredMail = {
      ...rest,
      from: this.from,
      sentAt: new Date().toISOString(),
      ...(attachments?.length
        ? {
            attachments: attachments.map(({ filename, contentType, content }) => ({
              filename,
              contentType,
              base64: content.toString('base64'),
            })),
          }
        : {}),
    };
    const file = path.join(this.dir, `${mail.id}.json`);
    await writeFile(`${file}.tmp`, JSON.stringify(stored, null, 2));
    await rename(`${file}.tmp`, file);
    const message = `mail written to ${file}`;
    this.log.info(
      { to: mail.to, subject: mail.subject },
      this.logText ? `${message}\n${mail.text}` : message,
    );
  }

  async close() {}
}
