import type { AssignableRole } from '../../../shared/catalogue-roles.js';
import { M } from '../../../shared/messages.js';
import type {
  Catalogue,
  Invitation,
  ReceivedInvitation,
} from '../../../shared/schemas/catalogues.js';
import type { DB } from '../../infra/db/handle.js';
import { notFound } from '../../lib/http-error.js';
import { CatalogueRepository } from '../catalogues/index.js';
import { answer, confirmedEmail, type Invitee } from './answering.js';
import {
  sendInvitation,
  type AddressedCatalogue,
  type Inviter,
  type SendingDeps,
} from './sending.js';

interface InvitationsDeps extends SendingDeps {
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
   * Invites `email` (lower-case) with `role`, the mail within the address's invitation budget
   * (sending.ts); the answer is the same whoever the address belongs to.
   */
  async invite(
    addressed: AddressedCatalogue,
    inviter: Inviter,
    email: string,
    role: AssignableRole,
  ): Promise<Invitation> {
    const row = await sendInvitation(this.deps, addressed, inviter, email, role);
    return {
      id: row.id,
      email,
      role,
      invitedBy: { id: inviter.id, name: inviter.name },
      createdAt: iso(row.created_at),
      expiresAt: iso(row.expires_at),
    };
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
}
