import type { Kysely } from 'kysely';

/**
 * What an account's invitation budget reads: the invitations it sent in the last 24 hours, in
 * every catalogue.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('catalogue_invitations_inviter')
    .on('catalogue_invitations')
    .columns(['invited_by', 'created_at'])
    .execute();
}
