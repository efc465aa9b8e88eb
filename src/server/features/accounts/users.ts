import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { NAME_MAX } from '../../../shared/constants.js';
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

/** What a personal catalogue is called at first: after its user, within a name's limit. */
const PERSONAL_SUFFIX = "'s catalogue";
export const personalCatalogueName = (userName: string) =>
  `${[...userName].slice(0, NAME_MAX - PERSONAL_SUFFIX.length).join('')}${PERSONAL_SUFFIX}`;

/**
 * The personal catalogue of the account with this e-mail (its id is the user's) and its owner
 * membership. An account that has them already keeps them as they are: the same statements run
 * and write the same rows either way, like insertUserIfNew.
 */
async function insertPersonalCatalogue(db: DB, user: NewUser, now: number) {
  const account = db.selectFrom('users').where('email', '=', user.email);
  await db
    .insertInto('catalogues')
    .columns(['id', 'name', 'personal', 'created_at', 'updated_at'])
    .expression(
      account.select((eb) => [
        'id',
        eb.val(personalCatalogueName(user.name)).as('name'),
        eb.val(1).as('personal'),
        eb.val(now).as('created_at'),
        eb.val(now).as('updated_at'),
      ]),
    )
    .onConflict((oc) => oc.column('id').doUpdateSet({ name: sql.ref('catalogues.name') }))
    .execute();
  await db
    .insertInto('catalogue_members')
    .columns(['catalogue_id', 'user_id', 'role', 'created_at'])
    .expression(
      account.select((eb) => [
        'id',
        'id',
        eb.val('owner').as('role'),
        eb.val(now).as('created_at'),
      ]),
    )
    .onConflict((oc) =>
      oc
        .columns(['catalogue_id', 'user_id'])
        .doUpdateSet({ role: sql.ref('catalogue_members.role') }),
    )
    .execute();
}

/** Runs `work` in a transaction, or in the caller's when `db` is one already. */
const inTransaction = <T>(db: DB, work: (trx: DB) => Promise<T>) =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

/**
 * Inserts a new account with its personal catalogue and returns its id (tests and tools; sign-up
 * uses insertUserIfNew).
 */
export async function insertUser(db: DB, user: NewUser, now: number) {
  const row = newUserRow(user, now);
  await inTransaction(db, async (trx) => {
    await trx.insertInto('users').values(row).execute();
    await insertPersonalCatalogue(trx, user, now);
  });
  return row.id;
}

/**
 * Inserts the account unless its e-mail already has one, which stays exactly as it was. The same
 * statement runs either way, and parallel sign-ups for one address leave the first one standing.
 * An existing row is rewritten with its own e-mail rather than skipped: the statement then writes
 * the row and its e-mail index for every address, so its time (fsync'd pages) does not tell
 * whether the address was registered (tests/server/accounts/auth/timing.test.ts). The account's
 * personal catalogue and its ownership are written the same way, in the same transaction.
 */
export async function insertUserIfNew(db: DB, user: NewUser, now: number) {
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('users')
      .values(newUserRow(user, now))
      .onConflict((oc) =>
        oc.column('email').doUpdateSet({ email: (eb) => eb.ref('excluded.email') }),
      )
      .execute();
    await insertPersonalCatalogue(trx, user, now);
  });
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
