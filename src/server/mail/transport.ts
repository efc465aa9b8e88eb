import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

export interface OutgoingMail {
  /** The outbox row id: also the Message-ID, so a re-send after a crash can be recognised. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

export function createTransport(config: Config, log: FastifyBaseLogger): MailTransport {
  return config.smtpUrl
    ? new SmtpTransport(config.smtpUrl, config.mailFrom, config.publicUrl)
    : new LocalMailbox(
        path.join(config.dataDir, 'mail'),
        config.mailFrom,
        log,
        // The developer reads codes in the log; anywhere else a log store must never hold them.
        config.env === 'development',
      );
}

class SmtpTransport implements MailTransport {
  private readonly transporter: nodemailer.Transporter;

  constructor(
    url: string,
    private readonly from: string,
    private readonly publicUrl: string,
  ) {
    this.transporter = nodemailer.createTransport(url, {
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

export interface StoredMail extends OutgoingMail {
  from: string;
  sentAt: string;
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
    const stored: StoredMail = { ...mail, from: this.from, sentAt: new Date().toISOString() };
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

/** Newest first: what the development mailbox page lists. */
export async function listLocalMail(dir: string): Promise<StoredMail[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const mails = await Promise.all(
    names.map(
      async (name) => JSON.parse(await readFile(path.join(dir, name), 'utf8')) as StoredMail,
    ),
  );
  return mails.sort((a, b) => b.sentAt.localeCompare(a.sentAt));
}
