import type { Kysely } from 'kysely';

/**
 * A change of e-mail waits for a code mailed to the new address: the account keeps its address
 * and holds the new one in `pending_email` until then. The request for that mail names the
 * account in `user_id`, since its recipient is not yet the account's address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pending_email', 'text').execute();
  await db.schema.alterTable('outbox').addColumn('user_id', 'text').execute();
}
