import type { Selectable } from 'kysely';
import type { CodePurpose } from '../db/schema-accounts.js';
import type { MailOutcome, MailRequestKind, OutboxTable } from '../db/schema-mail.js';
import type { MailMessage } from './outbox.js';

/**
 * A mail request as the outbox worker claimed it: its outbox row (whose `attempts` is the claim's
 * attempt number: the row is still ours while it has not moved on), of a request's kind.
 */
export type MailRequest = Pick<
  Selectable<OutboxTable>,
  'id' | 'recipient' | 'attempts' | 'created_at' | 'counted_at' | 'code_id' | 'user_id'
> & { kind: MailRequestKind };

/** The mail to send now (a code mail says when its code expires), or why there is none. */
export type PreparedMail =
  | { mail: MailMessage; codeExpiresAt?: number }
  | { outcome: Exclude<MailOutcome, 'sent' | 'failed'> };

const PURPOSES: Record<MailRequestKind, CodePurpose> = {
  signup: 'confirm',
  'confirm-code': 'confirm',
  'reset-code': 'reset',
  'email-code': 'email',
};
export const budgetPurpose = (kind: MailRequestKind): CodePurpose => PURPOSES[kind];

/** The other worker took the row over (our lease ran out): leave it to them. */
export class ClaimLost extends Error {}

/**
 * What turns a claimed mail request into a mail at send time (the accounts feature's code mails):
 * the outbox stores requests and sends, and knows nothing of accounts or codes.
 */
export interface MailRequestPreparer {
  prepare(request: MailRequest): Promise<PreparedMail>;
}
