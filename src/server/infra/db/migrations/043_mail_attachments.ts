import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Files a queued mail carries (a purchase order's PDF): stored with the mail as it is queued, in
 * the same transaction, so every try sends the same bytes, and gone with the mail's body once it
 * is closed (or with its row). A mail's attachments are read in their `position` order.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .createTable('outbox_attachments')
    .addColumn('outbox_id', 'text', (c) => c.notNull().references('outbox.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('outbox_attachments_pk', ['outbox_id', 'position'])
    .execute();
}
