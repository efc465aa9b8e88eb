import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  // Epoch-millisecond columns need 64 bits; SQLite's integer is already 64-bit.
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  // One live code per user and purpose; no two codes of a purpose alike.
  await db.schema
    .createIndex('codes_user_purpose')
    .on('codes')
    .columns(['user_id', 'purpose'])
    .unique()
    .execute();
  await db.schema
    .createIndex('codes_purpose_hash')
    .on('codes')
    .columns(['purpose', 'code_hash'])
    .unique()
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'bigint', (c) => c.notNull())
    .addColumn('stock', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('image_key', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  // Every list order is (owner, sort key, id): a page is one index range scan at any catalogue size.
  for (const [name, column] of [
    ['created', 'created_at'],
    ['name', 'name_key'],
    ['price', 'price_cents'],
    ['stock', 'stock'],
  ] as const) {
    await db.schema
      .createIndex(`products_owner_${name}`)
      .on('products')
      .columns(['owner_id', column, 'id'])
      .execute();
  }

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('locked_until', time)
    .addColumn('sent_at', time)
    .addColumn('last_error', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('outbox_due')
    .on('outbox')
    .columns(['sent_at', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('code_failures')
    .addColumn('id', serial, (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('code_failures_purpose_at')
    .on('code_failures')
    .columns(['purpose', 'at'])
    .execute();
}
