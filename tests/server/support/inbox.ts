import path from 'node:path';
import { listLocalMail } from '../../../src/server/infra/mail/local-mailbox-reader.js';
import type { TestServer } from './build.js';
import type { TestSmtpServer } from '../../support/smtp.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const CODE_LINE = /Your code: (\d{6})/;

/** The 6-digit code a mail carries, if any. */
export const codeIn = (mail: Mail) => CODE_LINE.exec(mail.text)?.[1];

/**
 * Where a test reads the mail the server sent. build() does not start the outbox worker, so
 * `fetch()` runs it once (`deliverDue`) and then collects what arrived. Fetch after each step that
 * mails the same address, so "the newest mail" is never ambiguous.
 */
export abstract class Inbox {
  abstract readonly mails: readonly Mail[];

  constructor(protected readonly server: TestServer) {}

  abstract fetch(): Promise<void>;

  mailsTo(email: string): Mail[] {
    return this.mails.filter((mail) => mail.to === email.toLowerCase());
  }

  lastMailTo(email: string): Mail {
    const mail = this.mailsTo(email).at(-1);
    if (!mail) throw new Error(`no mail to ${email}`);
    return mail;
  }

  /** The code of the newest mail to this address (which must carry one). */
  codeFor(email: string): string {
    const mail = this.lastMailTo(email);
    const code = codeIn(mail);
    if (!code) throw new Error(`the newest mail to ${email} ("${mail.subject}") has no code`);
    return code;
  }
}

/** Mail written to DATA_DIR/mail/<id>.json: what the server does without SMTP_URL. */
export class LocalInbox extends Inbox {
  readonly mails: Mail[] = [];
  private readonly seen = new Set<string>();

  async fetch() {
    await this.server.app.outbox.deliverDue();
    // listLocalMail gives newest first; keep arrival order here.
    const stored = (await listLocalMail(path.join(this.server.dataDir, 'mail'))).reverse();
    for (const mail of stored) {
      if (this.seen.has(mail.id)) continue;
      this.seen.add(mail.id);
      this.mails.push(mail);
    }
  }
}

/** Mail received by a real SMTP server on loopback (the server was built with its SMTP_URL). */
export class SmtpInbox extends Inbox {
  readonly mails: readonly Mail[];

  constructor(
    server: TestServer,
    readonly smtp: TestSmtpServer,
  ) {
    super(server);
    this.mails = smtp.mails;
  }

  async fetch() {
    await this.server.app.outbox.deliverDue();
  }
}
