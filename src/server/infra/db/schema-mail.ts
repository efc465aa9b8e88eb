import type { Generated } from 'kysely';
import type { MailBudget } from './schema-accounts.js';

// The mail outbox and the low-stock digests sent. schema.ts says how times are stored.

/**
 * A mail rendered when it is queued ('notice'), or a request the worker turns into a mail at send
 * time (migration 007): a code of a purpose, or for 'signup' a code or "you already have an account".
 */
type MailKind = 'notice' | MailRequestKind;
export type MailRequestKind = 'signup' | 'confirm-code' | 'reset-code' | 'email-code';

/** Why a row was closed: sent, or why nothing (more) was sent. */
export type MailOutcome =
  'sent' | 'no-account' | 'not-applicable' | 'over-budget' | 'expired' | 'superseded' | 'failed';

export interface OutboxTable {
  id: string;
  recipient: string;
  kind: MailKind;
  /** The budget a request (or a counted invitation) counts in; null for other notices. */
  purpose: MailBudget | null;
  /** Empty for requests (rendered at send time) and for every sent row. */
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
  next_attempt_at: number;
  locked_until: number | null;
  /** When the worker counted the request in its address's budget; null until then. */
  counted_at: number | null;
  /** The code issued for this request (its id, never the code), re-keyed when a send is retried. */
  code_id: string | null;
  /** The account a request is for when its recipient is not the account's address (migration 013). */
  user_id: Generated<string | null>;
  sent_at: number | null;
  closed_at: number | null;
  outcome: MailOutcome | null;
  last_error: string | null;
  created_at: number;
}

/** A file a queued mail carries (migration 043), deleted when the mail is closed. */
export interface OutboxAttachmentsTable {
  outbox_id: string;
  position: number;
  filename: string;
  content_type: string;
  content: Buffer;
}

/**
 * A low-stock digest sent (migration 020): one per user and UTC day, claimed in the transaction
 * that queues its mail.
 */
export interface LowStockDigestsTable {
  user_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  sent_at: number;
  /** How many products it listed. */
  products: number;
}
