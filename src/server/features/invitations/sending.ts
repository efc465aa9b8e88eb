import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  type AssignableRole,
} from '../../../shared/catalogue-roles.js';
import { T } from '../../../shared/messages.js';
import { INVITATION_DAYS, INVITATIONS_PER_DAY } from '../../../shared/schemas/catalogues.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import { templates } from '../../infra/mail/templates.js';
import type { Clock } from '../../lib/clock.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { countedRequests, fitsMailBudget } from '../accounts/index.js';
import { CATALOGUE_NOT_FOUND } from '../catalogues/index.js';

const DAY_MS = 24 * 3_600_000;
const INVITATION_MS = INVITATION_DAYS * DAY_MS;

/** What sending an invitation needs of the server. */
export interface SendingDeps {
  db: DB;
  dialect: MigrationDialect;
  clock: Clock;
  outbox: Outbox;
  publicUrl: string;
  /** Invitations one account may send in 24 hours, over every catalogue (less when new). */
  invitationsPerAccount: number;
}

export interface Inviter {
  id: string;
  name: string;
}

/** The catalogue a request addresses: `confirm` fails the transaction if the caller lost the right. */
export interface AddressedCatalogue {
  id: string;
  confirm(trx: DB): Promise<void>;
}

/**
 * Invites `email` (lower-case) with `role`: replaces a pending invitation of that address, and
 * queues the mail unless the address's invitation budget is spent (the invitation stands either
 * way). Refused beyond the catalogue's daily limit and beyond the inviter's, which counts their
 * invitations in every catalogue. The catalogue's row and then the inviter are locked first, so
 * parallel invitations are counted one after another. Returns the invitation's row.
 */
export async function sendInvitation(
  deps: SendingDeps,
  addressed: AddressedCatalogue,
  inviter: Inviter,
  email: string,
  role: AssignableRole,
) {
  const { db, clock, outbox } = deps;
  const catalogueId = addressed.id;
  const invitation = await db.transaction().execute(async (trx) => {
    await addressed.confirm(trx);
    const now = clock.now();
    const catalogue = await lockCatalogue(trx, catalogueId);
    if (!catalogue) throw notFound(CATALOGUE_NOT_FOUND);
    if (await isMember(trx, catalogueId, email)) throw new HttpError(409, T.alreadyMember(email));
    await refuseOverDailyLimit(trx, catalogueId, now);
    const account = await lockInviter(deps, trx, inviter.id);
    await refuseOverAccountBudget(trx, account, now, deps.invitationsPerAccount);

    await trx
      .updateTable('catalogue_invitations')
      .set({ status: 'revoked', answered_at: now })
      .where('catalogue_id', '=', catalogueId)
      .where('email', '=', email)
      .where('status', '=', 'pending')
      .execute();
    const row = {
      id: randomUUID(),
      catalogue_id: catalogueId,
      email,
      role,
      invited_by: inviter.id,
      status: 'pending' as const,
      created_at: now,
      expires_at: now + INVITATION_MS,
      answered_at: null,
    };
    await trx.insertInto('catalogue_invitations').values(row).execute();
    await queueMail(deps, trx, row, { ...inviter, email: account.email }, catalogue.name);
    return row;
  });
  outbox.wake();
  return invitation;
}

/**
 * The invitation mail, within the address's invitation budget (the one the code mails keep, of
 * its own): counted as it is queued. Over budget, no mail, and nothing else differs. The
 * address is locked on PostgreSQL so that two catalogues inviting it at once count in turn;
 * SQLite's write transactions already run one at a time.
 */
async function queueMail(
  deps: SendingDeps,
  trx: DB,
  row: { email: string; role: AssignableRole; expires_at: number; created_at: number },
  inviter: Inviter & { email: string },
  catalogue: string,
) {
  if (deps.dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`invitation:${row.email}`}))`.execute(trx);
  }
  const counted = await countedRequests(trx, row.email, 'invitation', row.created_at);
  if (!fitsMailBudget(counted, row.created_at)) return;
  const mail = templates.invitation(deps.publicUrl, row.email, {
    inviter: inviter.name,
    inviterEmail: inviter.email,
    catalogue,
    role: ROLE_LABELS[row.role],
    roleDescription: ROLE_DESCRIPTIONS[row.role],
    expiresAt: row.expires_at,
  });
  await deps.outbox.enqueueCounted(trx, mail, 'invitation');
}

/**
 * Holds the catalogue's row until the transaction ends (an update that changes nothing takes the
 * row lock on PostgreSQL; SQLite's transaction holds the write lock from its start).
 */
async function lockCatalogue(trx: DB, catalogueId: string) {
  return trx
    .updateTable('catalogues')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', '=', catalogueId)
    .returning(['id', 'name'])
    .executeTakeFirst();
}

async function isMember(trx: DB, catalogueId: string, email: string): Promise<boolean> {
  const row = await trx
    .selectFrom('catalogue_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.user_id')
    .where('m.catalogue_id', '=', catalogueId)
    .where('u.email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Refuses the invitation beyond the catalogue's daily limit, with the seconds until the oldest of
 * the last 24 hours' invitations leaves the window (then one more fits).
 */
async function refuseOverDailyLimit(trx: DB, catalogueId: string, now: number) {
  const sent = await trx
    .selectFrom('catalogue_invitations')
    .select('created_at')
    .where('catalogue_id', '=', catalogueId)
    .where('created_at', '>', now - DAY_MS)
    .orderBy('created_at', 'desc')
    .limit(INVITATIONS_PER_DAY)
    .execute();
  if (sent.length < INVITATIONS_PER_DAY) return;
  const freesAt = Number(sent.at(-1)!.created_at) + DAY_MS;
  const seconds = Math.max(1, Math.ceil((freesAt - now) / 1000));
  throw new HttpError(429, T.invitationsPerDay(INVITATIONS_PER_DAY), {
    'retry-after': String(seconds),
  });
}

/**
 * The inviter's account, held until the transaction ends so that their invitations from several
 * catalogues at once are counted in turn (an advisory lock on PostgreSQL; SQLite's transaction
 * holds the write lock).
 */
async function lockInviter(deps: SendingDeps, trx: DB, userId: string) {
  if (deps.dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`invitations-by:${userId}`}, 0))`.execute(
      trx,
    );
  }
  return trx
    .selectFrom('users')
    .select(['id', 'email', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/**
 * Refuses the invitation beyond what the inviter's account may send in 24 hours over all its
 * catalogues, with the seconds until the oldest of those leaves the window. While the account is
 * younger than a day, a fifth of that, but at least what one catalogue may send: enough to bring a
 * team into its first catalogue, not to multiply it by making catalogues.
 */
async function refuseOverAccountBudget(
  trx: DB,
  account: { id: string; created_at: number },
  now: number,
  perDay: number,
) {
  const isNew = now - Number(account.created_at) < DAY_MS;
  const most = isNew
    ? Math.min(perDay, Math.max(INVITATIONS_PER_DAY, Math.floor(perDay / 5)))
    : perDay;
  const sent = await trx
    .selectFrom('catalogue_invitations')
    .select('created_at')
    .where('invited_by', '=', account.id)
    .where('created_at', '>', now - DAY_MS)
    .orderBy('created_at', 'desc')
    .limit(most)
    .execute();
  if (sent.length < most) return;
  const freesAt = Math.min(
    Number(sent.at(-1)!.created_at) + DAY_MS,
    isNew ? Number(account.created_at) + DAY_MS : Infinity,
  );
  const seconds = Math.max(1, Math.ceil((freesAt - now) / 1000));
  throw new HttpError(
    429,
    isNew ? T.invitationsPerNewAccount(most) : T.invitationsPerAccount(most),
    { 'retry-after': String(seconds) },
  );
}
