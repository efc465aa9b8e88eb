import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Invitations to join a catalogue, by e-mail. A row is kept once answered, revoked or replaced
 * (its status says which), so the invitations a catalogue sent in the last 24 hours can be counted
 * from its rows: replacing one sends a new mail, and counts again.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('catalogue_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    // Lower-case, as every address the API takes.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('answered_at', time)
    .execute();
  // The daily count of a catalogue, and its list of pending invitations.
  await db.schema
    .createIndex('catalogue_invitations_catalogue')
    .on('catalogue_invitations')
    .columns(['catalogue_id', 'created_at'])
    .execute();
  // What waits for an address.
  await db.schema
    .createIndex('catalogue_invitations_email')
    .on('catalogue_invitations')
    .columns(['email', 'status'])
    .execute();
}
