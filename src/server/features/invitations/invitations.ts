import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  type AssignableRole,
} from '../../../shared/catalogue-roles.js';
import { M, T } from '../../../shared/messages.js';
import {
  INVITATION_DAYS,
  INVITATIONS_PER_DAY,
  type Catalogue,
  type Invitation,
  type ReceivedInvitation,
} from '../../../shared/schemas/catalogues.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import { templates } from '../../infra/mail/templates.js';
import type { Clock } from '../../lib/clock.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { countedRequests, fitsMailBudget } from '../accounts/index.js';
import { CATALOGUE_NOT_FOUND, CatalogueRepository } from '../catalogues/index.js';

const DAY_MS = 24 * 3_600_000;
const INVITATION_MS = INVITATION_DAYS * DAY_MS;

interface Inviter {
  id: string;
  name: string;
}

/** The catalogue a request addresses: `confirm` fails the transaction if the caller lost the right. */
interface AddressedCatalogue {
  id: string;
  confirm(trx: DB): Promise<void>;
}

/** The signed-in user who answers an invitation. */
interface Invitee {
  id: string;
}

interface InvitationsDeps {
  db: DB;
  dialect: MigrationDialect;
  clock: Clock;
  outbox: Outbox;
  publicUrl: string;
  /** Records, in the transaction of a join, what members' streams need to hear of it. */
  onJoined(
    trx: DB,
    catalogueId: string,
    userId: string,
    now: number,
    role: AssignableRole,
  ): Promise<void>;
}

const iso = (at: number | string) => new Date(Number(at)).toISOString();

/**
 * Invitations to join a catalogue by e-mail. Inviting does the same work whoever the address
 * belongs to (one row, one budget check, one queued mail), so neither the answer nor its time
 * tells whether it has an account. An invitation is answered by the signed-in user whose confirmed
 * address it was sent to; accepting it makes them a member in the same transaction.
 */
export class Invitations {
  private readonly catalogues: CatalogueRepository;

  constructor(private readonly deps: InvitationsDeps) {
    this.catalogues = new CatalogueRepository(deps.db, deps.dialect);
  }

  /** Pending, unexpired invitations with who sent them (`u`), newest first. */
  private pendingWithInviter() {
    return this.deps.db
      .selectFrom('catalogue_invitations as i')
      .innerJoin('users as u', 'u.id', 'i.invited_by')
      .where('i.status', '=', 'pending')
      .where('i.expires_at', '>', this.deps.clock.now())
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id');
  }

  /** The catalogue's pending, unexpired invitations, newest first. */
  async list(catalogueId: string): Promise<Invitation[]> {
    const rows = await this.pendingWithInviter()
      .select(['i.id', 'i.email', 'i.role', 'i.created_at', 'i.expires_at'])
      .select(['u.id as inviter_id', 'u.name as inviter_name'])
      .where('i.catalogue_id', '=', catalogueId)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role,
      invitedBy: { id: row.inviter_id, name: row.inviter_name },
      createdAt: iso(row.created_at),
      expiresAt: iso(row.expires_at),
    }));
  }

  /**
   * Invites `email` (lower-case) with `role`: replaces a pending invitation of that address, and
   * queues the mail unless the address's invitation budget is spent (the invitation stands either
   * way). The catalogue's row is locked first, so parallel invitations are counted one after another
   * against the daily limit.
   */
  async invite(
    addressed: AddressedCatalogue,
    inviter: Inviter,
    email: string,
    role: AssignableRole,
  ): Promise<Invitation> {
    const { db, clock, outbox } = this.deps;
    const catalogueId = addressed.id;
    const invitation = await db.transaction().execute(async (trx) => {
      await addressed.confirm(trx);
      const now = clock.now();
      const catalogue = await lockCatalogue(trx, catalogueId);
      if (!catalogue) throw notFound(CATALOGUE_NOT_FOUND);
      if (await isMember(trx, catalogueId, email)) throw new HttpError(409, T.alreadyMember(email));
      await refuseOverDailyLimit(trx, catalogueId, now);

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
      await this.queueMail(trx, row, inviter.name, catalogue.name);
      return {
        id: row.id,
        email,
        role,
        invitedBy: { id: inviter.id, name: inviter.name },
        createdAt: iso(row.created_at),
        expiresAt: iso(row.expires_at),
      };
    });
    outbox.wake();
    return invitation;
  }

  /** Revokes a pending invitation of the catalogue. */
  async revoke(addressed: AddressedCatalogue, invitationId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await addressed.confirm(trx);
      const result = await trx
        .updateTable('catalogue_invitations')
        .set({ status: 'revoked', answered_at: this.deps.clock.now() })
        .where('id', '=', invitationId)
        .where('catalogue_id', '=', addressed.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw notFound(M.invitationNotFound);
    });
  }

  /** What waits for the user's confirmed address: pending, unexpired, newest first. */
  async received(invitee: Invitee): Promise<ReceivedInvitation[]> {
    const email = await confirmedEmail(this.deps.db, invitee.id);
    if (email === undefined) return [];
    const rows = await this.pendingWithInviter()
      .innerJoin('catalogues as c', 'c.id', 'i.catalogue_id')
      .select(['i.id', 'i.role', 'i.expires_at', 'c.id as catalogue_id', 'c.name as catalogue'])
      .select('u.name as inviter')
      .where('i.email', '=', email)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      catalogue: { id: row.catalogue_id, name: row.catalogue },
      role: row.role,
      invitedBy: { name: row.inviter },
      expiresAt: iso(row.expires_at),
    }));
  }

  /**
   * Accepts an invitation to the user's confirmed address: one transaction answers it (only while
   * it is pending, so parallel accepts apply once) and adds the membership. A member already (by
   * another invitation) keeps the role they have. Returns the catalogue as the new member sees it.
   */
  async accept(invitee: Invitee, invitationId: string): Promise<Catalogue> {
    const { db, clock } = this.deps;
    return db.transaction().execute(async (trx) => {
      const now = clock.now();
      const answered = await answer(trx, invitee, invitationId, 'accepted', now);
      await trx
        .insertInto('catalogue_members')
        .values({
          catalogue_id: answered.catalogue_id,
          user_id: invitee.id,
          role: answered.role,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['catalogue_id', 'user_id']).doNothing())
        .execute();
      await this.deps.onJoined(trx, answered.catalogue_id, invitee.id, now, answered.role);
      const catalogue = await this.catalogues.findFor(answered.catalogue_id, invitee.id, trx);
      if (!catalogue) throw notFound(M.invitationNotFound);
      return catalogue;
    });
  }

  async decline(invitee: Invitee, invitationId: string): Promise<void> {
    const { db, clock } = this.deps;
    await db.transaction().execute(async (trx) => {
      await answer(trx, invitee, invitationId, 'declined', clock.now());
    });
  }

  /**
   * The invitation mail, within the address's invitation budget (the one the code mails keep, of
   * its own): counted as it is queued. Over budget, no mail, and nothing else differs. The
   * address is locked on PostgreSQL so that two catalogues inviting it at once count in turn;
   * SQLite's write transactions already run one at a time.
   */
  private async queueMail(
    trx: DB,
    row: { email: string; role: AssignableRole; expires_at: number; created_at: number },
    inviter: string,
    catalogue: string,
  ) {
    if (this.deps.dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext(${`invitation:${row.email}`}))`.execute(trx);
    }
    const counted = await countedRequests(trx, row.email, 'invitation', row.created_at);
    if (!fitsMailBudget(counted, row.created_at)) return;
    const mail = templates.invitation(this.deps.publicUrl, row.email, {
      inviter,
      catalogue,
      role: ROLE_LABELS[row.role],
      roleDescription: ROLE_DESCRIPTIONS[row.role],
      expiresAt: row.expires_at,
    });
    await this.deps.outbox.enqueueCounted(trx, mail, 'invitation');
  }
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

/** The user's address if it is confirmed: only a confirmed address can answer an invitation. */
async function confirmedEmail(db: DB, userId: string): Promise<string | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['email', 'confirmed'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user && Number(user.confirmed) === 1 ? user.email : undefined;
}

/**
 * Answers a pending, unexpired invitation to the user's confirmed address, or refuses with 404:
 * "expired" only to its invitee, so nobody learns of another address's invitations.
 */
async function answer(
  trx: DB,
  invitee: Invitee,
  invitationId: string,
  status: 'accepted' | 'declined',
  now: number,
) {
  const email = await confirmedEmail(trx, invitee.id);
  if (email === undefined) throw notFound(M.invitationNotFound);
  const answered = await trx
    .updateTable('catalogue_invitations')
    .set({ status, answered_at: now })
    .where('id', '=', invitationId)
    .where('email', '=', email)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .returning(['catalogue_id', 'role'])
    .executeTakeFirst();
  if (answered) return answered;
  const expired = await trx
    .selectFrom('catalogue_invitations')
    .select('id')
    .where('id', '=', invitationId)
    .where('email', '=', email)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  throw notFound(expired ? M.invitationExpired : M.invitationNotFound);
}
