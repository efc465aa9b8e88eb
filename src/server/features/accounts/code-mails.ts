import { CODE_TTL_MINUTES } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MailRequestKind } from '../../infra/db/schema-mail.js';
import type { Clock } from '../../lib/clock.js';
import {
  budgetPurpose,
  ClaimLost,
  type MailRequest,
  type MailRequestPreparer,
  type PreparedMail,
} from '../../infra/mail/mail-requests.js';
import type { MailMessage } from '../../infra/mail/outbox.js';
import { templates } from '../../infra/mail/templates.js';
import { Codes } from './codes.js';
import { countedRequests, fitsMailBudget } from './mail-budget.js';

const CODE_TTL_MS = CODE_TTL_MINUTES * 60_000;

type Account = {
  id: string;
  name: string;
  email: string;
  confirmed: number;
  pending_email: string | null;
};
type Mailed = 'confirm-code' | 'reset-code' | 'email-code' | 'account-exists';

/** What a request sends to an account in its state now; undefined when it does not apply. */
function mailFor(request: MailRequest, account: Account): Mailed | undefined {
  const { kind } = request;
  if (kind === 'reset-code') return 'reset-code';
  // Only to the address the account still wants to move to.
  if (kind === 'email-code') {
    return account.pending_email === request.recipient ? 'email-code' : undefined;
  }
  if (account.confirmed === 0) return 'confirm-code';
  return kind === 'signup' ? 'account-exists' : undefined;
}

/** The mail a request's code goes out in, when it is sent again. */
const codeMailOf = (kind: MailRequestKind): Mailed =>
  kind === 'signup' ? 'confirm-code' : (kind as Exclude<MailRequestKind, 'signup'>);

/**
 * Turns a mail request row into a mail at send time: one transaction locks the account, checks the
 * request still applies and the address's budget (mail-budget.ts), and issues the code, which then
 * exists only in the mail rendered here. So a request writes the same one row for every address and
 * the outbox never holds a code. A retry gives the same code row new digits without counting again;
 * a request whose code expired, was used or was replaced is not sent.
 */
export class CodeMails implements MailRequestPreparer {
  private readonly codes: Codes;

  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    secret: string,
    private readonly publicUrl: string,
  ) {
    this.codes = new Codes(secret, clock);
  }

  async prepare(request: MailRequest): Promise<PreparedMail> {
    return this.db.transaction().execute(async (trx) => {
      // A new address has no account yet: its request names the account instead.
      const account =
        request.kind === 'email-code'
          ? await lockAccount(trx, 'id', request.user_id ?? '')
          : await lockAccount(trx, 'email', request.recipient);
      if (!account) return { outcome: 'no-account' };
      const now = this.clock.now();
      return request.counted_at === null
        ? this.first(trx, request, account, now)
        : this.again(trx, request, account, request.counted_at, now);
    });
  }

  private async first(
    trx: DB,
    request: MailRequest,
    account: Account,
    now: number,
  ): Promise<PreparedMail> {
    const mailed = mailFor(request, account);
    if (!mailed) return { outcome: 'not-applicable' };
    const withCode = mailed !== 'account-exists';
    // Not worth a code any more: whoever asked has been told it lasts 10 minutes.
    if (withCode && now >= request.created_at + CODE_TTL_MS) return { outcome: 'expired' };
    const purpose = budgetPurpose(request.kind);
    const counted = await countedRequests(trx, request.recipient, purpose, request.created_at);
    if (!fitsMailBudget(counted, request.created_at)) return { outcome: 'over-budget' };

    const issued = withCode ? await this.codes.issueWithId(trx, account.id, purpose) : undefined;
    await holdClaim(trx, request, { counted_at: now, code_id: issued?.id ?? null });
    return {
      mail: this.render(mailed, request.recipient, account, issued?.code),
      ...(issued ? { codeExpiresAt: now + CODE_TTL_MS } : {}),
    };
  }

  private async again(
    trx: DB,
    request: MailRequest,
    account: Account,
    countedAt: number,
    now: number,
  ): Promise<PreparedMail> {
    await holdClaim(trx, request, {});
    if (request.code_id === null) {
      return { mail: this.render('account-exists', request.recipient, account) };
    }
    const codeExpiresAt = countedAt + CODE_TTL_MS;
    if (now >= codeExpiresAt) return { outcome: 'expired' };
    const code = await this.codes.rekey(trx, request.code_id);
    if (code === undefined) return { outcome: 'superseded' };
    const mailed = codeMailOf(request.kind);
    return { mail: this.render(mailed, request.recipient, account, code), codeExpiresAt };
  }

  /** The mail to `to`: the account's address, or for an e-mail change the new one. */
  private render(mailed: Mailed, to: string, account: Account, code = ''): MailMessage {
    const { name } = account;
    if (mailed === 'account-exists') return templates.accountExists(this.publicUrl, to, name);
    if (mailed === 'email-code') {
      return templates.confirmEmailChange(this.publicUrl, to, { name, from: account.email }, code);
    }
    const template = {
      'confirm-code': templates.confirmAccount,
      'reset-code': templates.resetPassword,
    }[mailed];
    return template(this.publicUrl, to, name, code);
  }
}

/**
 * The account of an address, its row held until the transaction ends so that workers in other
 * processes handle one address at a time: an UPDATE takes the row's lock on PostgreSQL (and later
 * statements, under read committed, see what the previous holder committed); SQLite transactions
 * hold the database's write lock from BEGIN IMMEDIATE. The update changes nothing.
 */
async function lockAccount(
  trx: DB,
  by: 'email' | 'id',
  value: string,
): Promise<Account | undefined> {
  return trx
    .updateTable('users')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where(by, '=', value)
    .returning(['id', 'name', 'email', 'confirmed', 'pending_email'])
    .executeTakeFirst();
}

/** Writes to the request row only while this worker's claim on it stands; else rolls back. */
async function holdClaim(
  trx: DB,
  request: MailRequest,
  changes: { counted_at?: number; code_id?: string | null },
) {
  const result = await trx
    .updateTable('outbox')
    .set({ attempts: request.attempts, ...changes })
    .where('id', '=', request.id)
    .where('attempts', '=', request.attempts)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ClaimLost(`mail ${request.id} was taken over`);
}
