import type { Kysely } from 'kysely';

/**
 * The activity log outlives the accounts in it: when an account is deleted its entries lose their
 * link to it and keep its name here instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('activity_entries').addColumn('actor_name', 'text').execute();
}
