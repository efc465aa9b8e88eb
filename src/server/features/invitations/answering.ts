import { M } from '../../../shared/messages.js';
import type { DB } from '../../infra/db/handle.js';
import { notFound } from '../../lib/http-error.js';

/** The signed-in user who answers an invitation. */
export interface Invitee {
  id: string;
}

/** The user's address if it is confirmed: only a confirmed address can answer an invitation. */
export async function confirmedEmail(db: DB, userId: string): Promise<string | undefined> {
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
export async function answer(
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
