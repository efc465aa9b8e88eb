import path from 'node:path';
import Database from 'better-sqlite3';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import type { CatalogueRole } from '../../../src/shared/catalogue-roles.js';
import type { TestServer } from '../support/build.js';
import { SQLITE_FILE } from '../support/database-template.js';
import { newEmail, signIn, userRow, type SignedIn } from '../support/accounts.js';
import { multipart } from '../support/images.js';

/** The words of the answers these tests check, as the API gives them. */
export const CATALOGUE_NOT_FOUND = { message: 'Catalogue not found' };
export const PRODUCT_NOT_FOUND = { message: 'Product not found' };

/** A signed-in user and their id, which is also the id of their personal catalogue. */
export interface Person extends SignedIn {
  id: string;
}

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** What a test sends: JSON (an object), a prepared multipart body, or nothing. */
export interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  json?: object;
  form?: Record<string, string>;
  /** A CSV file in the field `file`. */
  csv?: string;
  headers?: Record<string, string>;
}

/** The inject options of a request, its body encoded: what `fire` sends at once. */
export async function prepare(person: Person, request: Request): Promise<InjectOptions> {
  const options: InjectOptions = {
    method: request.method,
    url: request.url,
    headers: { ...person.headers, ...request.headers },
  };
  if (request.json !== undefined) options.payload = request.json;
  if (request.form !== undefined || request.csv !== undefined) {
    const files =
      request.csv === undefined
        ? []
        : [
            {
              field: 'file',
              data: Buffer.from(request.csv),
              filename: 'products.csv',
              contentType: 'text/csv',
            },
          ];
    const body = await multipart(request.form ?? {}, ...files);
    options.payload = body.payload;
    options.headers = { ...options.headers, ...body.headers };
  }
  return options;
}

export async function fire(server: TestServer, options: InjectOptions): Promise<Answer> {
  const res = await server.app.inject(options);
  let body: unknown = undefined;
  try {
    body = res.json();
  } catch {
    // a CSV or a PDF: the status is what matters here
  }
  return { status: res.statusCode, body, text: res.body };
}

/** Sends a request as a person, over inject. */
export async function send(server: TestServer, person: Person, request: Request): Promise<Answer> {
  return fire(server, await prepare(person, request));
}

/** Sends and insists on one status: set-up steps that must work for the test to mean anything. */
export async function must(
  server: TestServer,
  person: Person,
  request: Request,
  status: number,
): Promise<Answer> {
  const answer = await send(server, person, request);
  if (answer.status !== status) {
    throw new Error(
      `${request.method} ${request.url}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 300)}`,
    );
  }
  return answer;
}

export async function person(server: TestServer, name: string): Promise<Person> {
  const user = await signIn(server, name);
  const row = await userRow(server, user.email);
  return { ...user, id: row!.id };
}

/**
 * Makes someone a member in a role, straight in the table: what an accepted invitation leaves,
 * without spending the catalogue's invitations of the day. Replaces any role they had.
 */
export async function setMember(
  server: TestServer,
  catalogueId: string,
  userId: string,
  role: CatalogueRole,
) {
  const db = server.database.db;
  await sql`delete from catalogue_members where catalogue_id = ${catalogueId} and user_id = ${userId}`.execute(
    db,
  );
  await sql`insert into catalogue_members (catalogue_id, user_id, role, created_at)
    values (${catalogueId}, ${userId}, ${role}, ${server.clock.now()})`.execute(db);
}

export async function roleOf(
  server: TestServer,
  catalogueId: string,
  userId: string,
): Promise<CatalogueRole | undefined> {
  const { rows } = await sql<{ role: CatalogueRole }>`select role from catalogue_members
    where catalogue_id = ${catalogueId} and user_id = ${userId}`.execute(server.database.db);
  return rows[0]?.role;
}

export async function productExists(server: TestServer, id: string) {
  const { rows } = await sql<{ id: string }>`select id from products where id = ${id}`.execute(
    server.database.db,
  );
  return rows.length === 1;
}

let productSequence = 0;
/** A name no other product of the run has. */
export const uniqueName = (label = 'Product') => `${label} ${++productSequence}`;

/** A product created in a catalogue through its mirror of the products API. */
export async function createProductIn(
  server: TestServer,
  creator: Person,
  catalogueId: string,
  fields: Record<string, string> = {},
) {
  const answer = await must(
    server,
    creator,
    {
      method: 'POST',
      url: `/api/catalogues/${catalogueId}/products`,
      form: { name: uniqueName(), price: '2.50', stock: '40', description: 'Seeded', ...fields },
    },
    201,
  );
  return (answer.body as { product: { id: string } }).product.id;
}

/**
 * The tables a refused request must leave as they were: catalogues and who belongs to them, the
 * products and all kept about them, what live streams and mails carry, and the invitations
 * (whatever their table is called).
 */
const WATCHED = [
  'users',
  'catalogues',
  'catalogue_members',
  'products',
  'product_tags',
  'stock_movements',
  'activity_entries',
  'live_events',
  'outbox',
  'counts',
  'count_lines',
];

export async function watchedTables(server: TestServer): Promise<string[]> {
  const tables = await server.database.db.introspection.getTables();
  const names = tables.map((table) => table.name);
  return [
    ...WATCHED.filter((name) => names.includes(name)),
    ...names.filter((name) => name.includes('invitation')),
  ];
}

const rowText = (row: unknown) =>
  JSON.stringify(row, (_key, value: unknown) =>
    typeof value === 'bigint' ? Number(value) : value,
  );

/**
 * Every row of the watched tables, each as JSON, sorted. On PostgreSQL in one round trip (each
 * table as a JSON array): the matrix takes two snapshots per refusal, and a query per table each
 * time made the file several times slower there.
 */
export async function snapshot(server: TestServer, tables: string[]) {
  const state: Record<string, string[]> = {};
  const db = server.database.db;
  if (server.database.dialect === 'postgres') {
    const columns = tables.map(
      (table) =>
        sql`(select coalesce(json_agg(t), '[]'::json) from ${sql.table(table)} t) as ${sql.ref(table)}`,
    );
    const { rows } = await sql<Record<string, unknown[]>>`select ${sql.join(columns)}`.execute(db);
    for (const table of tables) state[table] = rows[0]![table]!.map(rowText).sort();
    return state;
  }
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
      db,
    );
    state[table] = rows.map(rowText).sort();
  }
  return state;
}

/**
 * What `snapshot` tells apart, for a check that mostly finds no change: on PostgreSQL one digest
 * per watched table, of its rows as text in order, worked out by the server in one round trip.
 * The role matrix takes two per refusal (3,478 in a run), and sending every row over as JSON to
 * compare them here took half its time on PostgreSQL. A changed table shows as its digests before
 * and after there; on SQLite, which reads in this process anyway, as its rows (`snapshot`).
 */
async function digests(server: TestServer, tables: string[]) {
  if (server.database.dialect !== 'postgres') return snapshot(server, tables);
  const columns = tables.map(
    (table) =>
      sql`(select md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) from ${sql.table(table)} t) as ${sql.ref(table)}`,
  );
  const { rows } = await sql<Record<string, string>>`select ${sql.join(columns)}`.execute(
    server.database.db,
  );
  return Object.fromEntries(
    tables.map((table) => [table, [`rows with digest ${rows[0]![table]}`]]),
  );
}

/**
 * `digests` for a file that takes many, read again on SQLite only when the server has committed
 * something since the last ones: the `data_version` of a connection of the test's own changes
 * with every commit any other connection makes, so the same version means the same rows. The
 * role matrix's refusals commit nothing, and reading every watched row twice per refusal was most
 * of its time on SQLite. The version is read before the rows: a commit in between only makes the
 * next call read them again.
 */
export function watchRows(server: TestServer, tables: string[]) {
  if (server.database.dialect === 'postgres') return markedDigests(server, tables);
  const own = new Database(path.join(server.dataDir, SQLITE_FILE), {
    readonly: true,
    fileMustExist: true,
  });
  const dataVersion = own.prepare('pragma data_version').pluck();
  let last: { version: unknown; rows: Record<string, string[]> } | undefined;
  return {
    take: async () => {
      const version = dataVersion.get();
      if (last?.version !== version) last = { version, rows: await digests(server, tables) };
      return last!.rows;
    },
    close: () => own.close(),
  };
}

/**
 * `watchRows` on PostgreSQL, where a mark of the server's (a commit, a transaction id) moves with
 * every other database's writes too: a sequence of the test's own database, moved by a statement
 * trigger on each watched table whenever a statement writes to it (committed or not, as a
 * sequence is never rolled back). Digesting every watched row twice per refusal was a third of
 * the role matrix's time there. The mark is read before the digests, as on SQLite.
 */
function markedDigests(server: TestServer, tables: string[]) {
  const db = server.database.db;
  const install = async () => {
    await sql`create sequence watched_rows_mark`.execute(db);
    await sql`create function watched_rows_mark() returns trigger language plpgsql as $$
      begin perform nextval('watched_rows_mark'); return null; end $$`.execute(db);
    for (const table of tables) {
      await sql`create trigger watched_rows_mark after insert or update or delete or truncate
        on ${sql.table(table)} for each statement execute function watched_rows_mark()`.execute(db);
    }
  };
  let installed: Promise<void> | undefined;
  let last: { mark: string; rows: Record<string, string[]> } | undefined;
  return {
    take: async () => {
      installed ??= install();
      await installed;
      const { rows } = await sql<{ mark: string }>`select last_value || ' ' || is_called as mark
        from watched_rows_mark`.execute(db);
      const mark = rows[0]!.mark;
      if (last?.mark !== mark) last = { mark, rows: await digests(server, tables) };
      return last.rows;
    },
    close: () => {},
  };
}

/** Rows added and removed between two snapshots, table by table: what a failure shows. */
export function changes(
  before: Record<string, string[]>,
  after: Record<string, string[]>,
): Record<string, { added: string[]; removed: string[] }> {
  const diff: Record<string, { added: string[]; removed: string[] }> = {};
  for (const table of Object.keys(before)) {
    const was = new Set(before[table]);
    const is = new Set(after[table]);
    const added = [...is].filter((row) => !was.has(row));
    const removed = [...was].filter((row) => !is.has(row));
    if (added.length > 0 || removed.length > 0) diff[table] = { added, removed };
  }
  return diff;
}

export const randomUuid = () => crypto.randomUUID();
export const freshEmail = (label: string) => newEmail(label);
