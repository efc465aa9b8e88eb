import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Two-factor sign-in, opt-in per account.
 *
 * `user_totp`: the account's authenticator secret, sealed with a key derived from APP_SECRET (it
 * must be read back to check codes, so it cannot be hashed). `confirmed_at` is null while set-up
 * waits for its first code; `last_step` is the 30-second step of the last code accepted, so that
 * no code is accepted twice.
 *
 * `recovery_codes`: one-time codes, stored as keyed hashes; `used_at` once spent.
 *
 * `passkeys`: WebAuthn credentials by their id, with the public key and the signature counter.
 *
 * `sign_in_challenges`: what a sign-in or a passkey registration waits for, by the hash of its
 * id (the id is a bearer of the password step for a few minutes): the account once the password
 * was right, the WebAuthn challenge a passkey must sign, and the wrong codes tried so far.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';

  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', time)
    .addColumn('last_step', time, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recovery_codes_user')
    .on('recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', time, (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_used_at', time)
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

  await db.schema
    .createTable('sign_in_challenges')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('webauthn_challenge', 'text')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sign_in_challenges_expiry')
    .on('sign_in_challenges')
    .column('expires_at')
    .execute();
}
