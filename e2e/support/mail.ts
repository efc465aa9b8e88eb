import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ENV, requireEnv } from './env.js';
import type { ReceivedMail } from './smtp.js';

export interface MailQuery {
  /** Only mails received at or after this time (ms since the epoch), e.g. taken before an action. */
  since?: number;
  /** Only mails whose subject matches. */
  subject?: RegExp;
  /** How long to wait for a matching mail. */
  timeoutMs?: number;
}

/**
 * The mails read so far by this worker, by file name. A mail's file is written once and never
 * changed (renamed into place whole), and each look for a code read and parsed every mail of the
 * run again, every 100 ms while it waited: a cost that grew with the run.
 */
const readSoFar = new Map<string, ReceivedMail>();

function receivedMails(): ReceivedMail[] {
  const dir = requireEnv(ENV.mailDir);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      let mail = readSoFar.get(name);
      if (!mail) {
        mail = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as ReceivedMail;
        readSoFar.set(name, mail);
      }
      return mail;
    });
}

/** Every mail received so far for this address, oldest first. */
export function mailsTo(email: string): ReceivedMail[] {
  return receivedMails().filter((mail) => mail.to === email.toLowerCase());
}

/**
 * The newest mail to `email` that matches, waiting for it to arrive over SMTP (the app's outbox
 * delivers right after the request commits).
 */
async function readMail(email: string, query: MailQuery = {}): Promise<ReceivedMail> {
  const { since = 0, subject, timeoutMs = 10_000 } = query;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = mailsTo(email)
      .filter((m) => m.receivedAt >= since && (!subject || subject.test(m.subject)))
      .at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) {
      const seen = mailsTo(email).map((m) => `"${m.subject}"`);
      throw new Error(
        `No mail to ${email}${subject ? ` with subject ${subject}` : ''} within ${timeoutMs} ms ` +
          `(received for this address: ${seen.join(', ') || 'none'})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The 6-digit code of the newest mail to `email` that carries one. */
export async function readCode(email: string, query: MailQuery = {}): Promise<string> {
  const mail = await readMail(email, { subject: /confirm|reset/i, ...query });
  const code = /Your code: (\d{6})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`The mail "${mail.subject}" to ${email} carries no 6-digit code`);
  return code;
}

/** The link (the call-to-action URL) of the newest matching mail to `email`. */
export async function readLink(email: string, query: MailQuery = {}): Promise<string> {
  const mail = await readMail(email, query);
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`The mail "${mail.subject}" to ${email} carries no link`);
  return link;
}
