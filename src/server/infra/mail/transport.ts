import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { LocalMailbox } from './local-mailbox.js';
import { SmtpTransport } from './smtp-transport.js';

/** A file a mail carries, as queued: every try sends these bytes. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface OutgoingMail {
  /** The outbox row id: also the Message-ID, so a re-send after a crash can be recognised. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[] | undefined;
}

/** Where the outbox worker hands its mails. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/** SMTP when SMTP_URL is set, else the local mailbox in DATA_DIR/mail. */
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
