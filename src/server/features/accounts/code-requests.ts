import type { DB } from '../../infra/db/handle.js';
import type { CodePurpose } from '../../infra/db/schema-accounts.js';
import type { Clock } from '../../lib/clock.js';
import type { Outbox } from '../../infra/mail/outbox.js';

/** What the account flows that mail need. */
export interface MailFlowDeps {
  db: DB;
  clock: Clock;
  outbox: Outbox;
}

/**
 * Asks for a code mail to `email` (resend-confirmation, forgot-password, the login of an
 * unconfirmed account). It writes one durable request row and nothing else, whoever the address
 * belongs to, so the answer and its time are the same for every address; the outbox worker decides
 * whether a code goes (is there such an account, does the purpose apply, does the address's mail
 * budget allow it) and issues it at send time (code-mails.ts).
 */
export async function requestCode(deps: MailFlowDeps, email: string, purpose: CodePurpose) {
  await deps.outbox.request(deps.db, email, purpose === 'confirm' ? 'confirm-code' : 'reset-code');
  deps.outbox.wake();
}
