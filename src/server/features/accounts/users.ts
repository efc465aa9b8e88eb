import { randomUUID } from 'node:crypto';
import type { DB } from '../../infra/db/handle.js';

export const findUserByEmail = (db: DB, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

export const findUserById = (db: DB, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

type NewUser = { name: string; email: string; passwordHash: string };

/** The row of a new, unconfirmed account. */
const newUserRow = (user: NewUser, now: number) => ({
  id: randomUUID(),
  name: user.name,
  email: user.email,
  password_hash: user.passwordHash,
  confirmed: 0,
  created_at: now,
  updated_at: now,
});

/** Inserts a new account and returns its id (tests and tools; sign-up uses insertUserIfNew). */
export async function insertUser(db: DB, user: NewUser, now: number) {
  const row = newUserRow(user, now);
  await db.insertInto('users').values(row).execute();
  return row.id;
}

/**
 * Inserts the account unless its e-mail already has one, which stays exactly as it was. The same
 * statement runs either way, and parallel sign-ups for one address leave the first one standing.
 * An existing row is rewritten with its own e-mail rather than skipped: the statement then writes
 * the row and its e-mail index for every address, so its time (fsync'd pages) does not tell
 * whether the address was registered (tests/server/accounts/auth/timing.test.ts).
 */
export async function insertUserIfNew(db: DB, user: NewUser, now: number) {
  await db
    .insertInto('users')
    .values(newUserRow(user, now))
    .onConflict((oc) => oc.column('email').doUpdateSet({ email: (eb) => eb.ref('excluded.email') }))
    .execute();
}

export async function updateUser(
  db: DB,
  id: string,
  changes: {
    name?: string;
    email?: string;
    password_hash?: string;
    confirmed?: number;
    pending_email?: string | null;
  },
  now: number,
) {
  await db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Unique-constraint violations, as SQLite and PostgreSQL report them. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === '23505';
}
