import type { DeleteAccountInput } from '../../../shared/schemas/account-data.js';
import type { DB } from '../../infra/db/handle.js';
import type { MailMessage } from '../../infra/mail/outbox.js';
import { nextTurn } from '../../lib/turns.js';
import { recordCatalogueDeleted, recordCatalogueUpdated } from '../live-events/index.js';
import { verifyPassword } from './passwords.js';
import {
  checkSecondFactor,
  readSecondFactorCode,
  type SecondFactorCheck,
} from './two-factor/second-factor.js';
import type { TwoFactorDeps } from './two-factor/sign-in.js';
import { findUserById } from './users.js';

export interface DeletionDeps {
  db: DB;
  dialect: 'sqlite' | 'postgres';
  twoFactor: TwoFactorDeps;
  /** The personal catalogue's products deleted in the deleting transaction (the products feature's). */
  deleteCatalogueProducts(trx: DB, catalogueId: string): Promise<void>;
  /** Queues a mail in the deleting transaction, so it goes exactly when the account is gone. */
  enqueueMail(trx: DB, mail: MailMessage): Promise<void>;
  goodbyeMail(email: string, name: string): MailMessage;
}

export type DeletionResult =
  | { ok: true; imageKeys: string[] }
  | { ok: false; reason: 'password' | 'code-required' }
  | { ok: false; reason: 'second-factor'; check: Exclude<SecondFactorCheck, { ok: true }> }
  | { ok: false; reason: 'owns-shared'; catalogues: string[] };

/** The shared catalogues the account owns: each needs another owner (or deleting) first. */
async function ownedShared(trx: DB, userId: string, dialect: DeletionDeps['dialect']) {
  return (
    trx
      .selectFrom('catalogue_members as m')
      .innerJoin('catalogues as c', 'c.id', 'm.catalogue_id')
      .select('c.name')
      .where('m.user_id', '=', userId)
      .where('m.role', '=', 'owner')
      .where('c.id', '!=', userId)
      .orderBy('c.name')
      // Holds the account's memberships: a hand-over to it waits, then finds it gone.
      .$if(dialect === 'postgres', (query) => query.forUpdate())
      .execute()
  );
}

/** The image files of the personal catalogue: its products' and its deleted products' kept ones. */
async function personalImageKeys(trx: DB, userId: string): Promise<string[]> {
  const products = await trx
    .selectFrom('products')
    .select('image_key')
    .where('catalogue_id', '=', userId)
    .where('image_key', 'is not', null)
    .execute();
  const kept = await trx
    .selectFrom('activity_entries')
    .select('image_key')
    .where('catalogue_id', '=', userId)
    .where('image_key', 'is not', null)
    .execute();
  return [...products, ...kept].map((row) => row.image_key!);
}

/**
 * What the other members' screens hear, in the deleting transaction: each shared catalogue the
 * account belonged to changed its members; whoever was invited into its personal catalogue no
 * longer belongs to it.
 */
async function tellMembers(trx: DB, userId: string, now: number) {
  const memberships = await trx
    .selectFrom('catalogue_members')
    .select(['catalogue_id', 'user_id'])
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('catalogue_id', '=', userId)]))
    .execute();
  const teams = memberships.filter((row) => row.user_id === userId && row.catalogue_id !== userId);
  for (const team of teams) await recordCatalogueUpdated(trx, team.catalogue_id, now);
  const guests = memberships
    .filter((row) => row.catalogue_id === userId && row.user_id !== userId)
    .map((row) => row.user_id);
  await recordCatalogueDeleted(trx, userId, guests, now);
}

/**
 * Deletes an account: its personal catalogue (its id is the account's) with everything in it (its
 * products first, in bounded batches: deleteCatalogueProducts), its sessions, codes, second
 * factors and memberships (the foreign keys cascade), and the invitations waiting for its address.
 * Entries it made in shared catalogues keep its name as text. The password is checked first, then
 * the second factor when it is on (a wrong code counts against the daily budget, in the same
 * transaction), then the shared catalogues it owns: any of those and nothing is deleted, nor is
 * the right code spent (the owner hands the catalogues over and tries again with it). The caller
 * removes the image files once this has committed.
 */
export async function deleteAccount(
  deps: DeletionDeps,
  userId: string,
  input: DeleteAccountInput,
  now: number,
): Promise<DeletionResult> {
  const user = await findUserById(deps.db, userId);
  if (!user || !(await verifyPassword(user.password_hash, input.password))) {
    return { ok: false, reason: 'password' };
  }
  const { twoFactor } = deps;
  const secondFactor = await twoFactor.totp.isOn(deps.db, userId);
  if (secondFactor && !input.code?.trim()) return { ok: false, reason: 'code-required' };

  try {
    return await deps.db.transaction().execute(async (trx): Promise<DeletionResult> => {
      if (secondFactor) {
        const code = readSecondFactorCode(input.code!);
        const check = await checkSecondFactor(trx, twoFactor, userId, code, now);
        if (!check.ok) return { ok: false, reason: 'second-factor', check };
      }
      const owned = await ownedShared(trx, userId, deps.dialect);
      if (owned.length > 0) throw new Refused(owned.map((row) => row.name));
      return deleteEverything(trx, deps, user, now);
    });
  } catch (error) {
    if (error instanceof Refused) {
      return { ok: false, reason: 'owns-shared', catalogues: error.catalogues };
    }
    throw error;
  }
}

/** Rolls the deleting transaction back, the second factor's use with it. */
class Refused extends Error {
  constructor(readonly catalogues: string[]) {
    super('owns shared catalogues');
  }
}

/** The deletion itself, in its transaction, once nothing stands in its way. */
async function deleteEverything(
  trx: DB,
  deps: DeletionDeps,
  user: { id: string; name: string; email: string },
  now: number,
): Promise<DeletionResult> {
  const userId = user.id;
  const imageKeys = await personalImageKeys(trx, userId);
  await tellMembers(trx, userId, now);
  await trx
    .updateTable('activity_entries')
    .set({ actor_name: user.name })
    .where('actor_id', '=', userId)
    .execute();
  await trx.deleteFrom('catalogue_invitations').where('email', '=', user.email).execute();
  await deps.deleteCatalogueProducts(trx, userId);
  await trx.deleteFrom('catalogues').where('id', '=', userId).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  await deps.enqueueMail(trx, deps.goodbyeMail(user.email, user.name));
  // The commit, whose cost grows with all the deletion wrote, in a turn of its own.
  await nextTurn();
  return { ok: true, imageKeys };
}
