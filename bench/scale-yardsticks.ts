/**
 * What `npm run bench:scale` compares the app with, in the bench's own process: the same rows
 * read raw and joined into the export's CSV bytes (better-sqlite3 or pg, no app code), and raw
 * prepared inserts of an import's rows into SQLite: into a bare table, and into the app's own
 * products table with its indexes and search index.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { centsText } from '../src/server/features/catalogue-ops/csv-export.js';
import { newProductRow } from '../src/server/features/products/write-helpers.js';
import { openDatabase } from '../src/server/infra/db/open.js';
import { EXPORT_COLUMNS } from '../src/shared/constants.js';
import { products, seedUser } from './seed.js';

/** The export's columns as they are stored, in its order: the list's newest first. */
const EXPORT_SELECT = `select id, name, price_cents, stock, description, image_key, created_at,
  updated_at, sku, barcode, tags, cost_cents, reorder_point, reorder_quantity from products
  where catalogue_id = $1 order by created_at desc, id desc`;

/** A CSV cell as csv-stringify writes it: quoted when it holds a comma, a quote or a line break. */
const cell = (text: string) => {
  const safe = /^'*[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

type Row = [
  string,
  string,
  number,
  number,
  string,
  string | null,
  number | string,
  number | string,
  string | null,
  string | null,
  string,
  number | null,
  number | null,
  number | null,
];

/** A stored row as the export's CSV line (seeded products have no image). */
function line(row: Row) {
  const [id, name, price, stock, description, , createdAt, updatedAt, sku, barcode, tags] = row;
  const [cost, reorderPoint, reorderQuantity] = [row[11], row[12], row[13]];
  return [
    id,
    cell(name),
    centsText(Number(price)),
    stock,
    cell(description),
    '',
    new Date(Number(createdAt)).toISOString(),
    new Date(Number(updatedAt)).toISOString(),
    cell(sku ?? ''),
    cell(barcode ?? ''),
    cell((JSON.parse(tags) as string[]).join('; ')),
    cost === null ? '' : centsText(Number(cost)),
    reorderPoint ?? '',
    reorderQuantity ?? '',
  ].join(',');
}

/** Reads a catalogue's export rows raw and joins them into CSV bytes; the seconds it took. */
export async function rawExport(
  database: { sqliteFile: string } | { postgresUrl: string },
  catalogueId: string,
): Promise<{ bytes: Buffer; seconds: number }> {
  const started = performance.now();
  const lines = [`\ufeff${EXPORT_COLUMNS.join(',')}`];
  if ('sqliteFile' in database) {
    const db = new Database(database.sqliteFile, { readonly: true });
    try {
      const statement = db.prepare(EXPORT_SELECT.replace('$1', '?')).raw();
      for (const row of statement.iterate(catalogueId)) lines.push(line(row as Row));
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: database.postgresUrl });
    await client.connect();
    try {
      const result = await client.query<Row>({
        text: EXPORT_SELECT,
        values: [catalogueId],
        rowMode: 'array',
      });
      for (const row of result.rows) lines.push(line(row));
    } finally {
      await client.end();
    }
  }
  const bytes = Buffer.from(`${lines.join('\r\n')}\r\n`);
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

/**
 * Rows a second of raw prepared inserts of `count` import rows (the rows of importFile) into a
 * table of the products' main columns, in one transaction, in a fresh SQLite file with the
 * app's pragmas (WAL, synchronous=NORMAL).
 */
export async function rawInsertRate(count: number): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-raw-'));
  const db = new Database(path.join(dir, 'raw.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`create table products (id text primary key, catalogue_id text not null,
      name text not null, description text not null, price_cents integer not null,
      stock integer not null, created_at integer not null, updated_at integer not null)`);
    db.exec('create index products_newest on products (catalogue_id, created_at, id)');
    const insert = db.prepare('insert into products values (?, ?, ?, ?, ?, ?, ?, ?)');
    const rows = [...products(count)];
    const started = performance.now();
    db.transaction(() => {
      for (const row of rows) {
        insert.run(
          crypto.randomUUID(),
          'catalogue',
          row.name,
          row.description,
          row.priceCents,
          row.stock,
          row.createdAt,
          row.createdAt,
        );
      }
    })();
    return count / ((performance.now() - started) / 1000);
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Rows a second of raw prepared inserts of the same rows, made as the app makes them (search keys
 * folded beforehand), into the app's products table in a freshly migrated SQLite database: its
 * indexes and its trigram search index are what any import of those rows must write too.
 */
export async function rawAppInsertRate(count: number): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-raw-'));
  try {
    const database = await openDatabase({ dataDir: dir });
    const owner = await seedUser(database.db, 'raw@bench.test');
    await database.close();
    const rows = [...products(count)].map((row) =>
      newProductRow(owner.id, owner.id, row, row.createdAt),
    );
    const db = new Database(path.join(dir, 'stockroom.db'));
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      const columns = Object.keys(rows[0]!);
      const insert = db.prepare(
        `insert into products (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
      );
      const started = performance.now();
      db.transaction(() => {
        for (const row of rows) insert.run(row);
      })();
      return count / ((performance.now() - started) / 1000);
    } finally {
      db.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
