import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { CompiledQuery, DefaultQueryExecutor, sql } from 'kysely';
import { insertUser } from '../../../src/server/features/accounts/users.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import type { NewProduct } from '../../../src/server/features/products/rows.js';
import type { DB } from '../../../src/server/infra/db/handle.js';
import type { MigrationDialect } from '../../../src/server/infra/db/migrate.js';
import { productIdsOf } from './products.js';

type Executes = { executeQuery(query: CompiledQuery): Promise<unknown> };

/**
 * Records the statements that work run through Kysely, its own only: statements of background
 * loops (the outbox, the event polling) run outside its async context and are not counted. Every
 * Kysely instance, transactions included, executes through DefaultQueryExecutor; the patch goes
 * when `restore` runs (test files of one worker share their modules).
 */
export function statementRecorder() {
  const store = new AsyncLocalStorage<CompiledQuery[]>();
  const prototype = DefaultQueryExecutor.prototype as unknown as Executes;
  const original = prototype.executeQuery;
  prototype.executeQuery = function (this: Executes, query: CompiledQuery) {
    store.getStore()?.push(query);
    return original.call(this, query);
  };
  return {
    async during<T>(work: () => Promise<T>): Promise<{ result: T; statements: CompiledQuery[] }> {
      const statements: CompiledQuery[] = [];
      // Awaited inside: an inject only starts once it is awaited.
      const result = await store.run(statements, async () => await work());
      return { result, statements: [...statements] };
    },
    restore() {
      prototype.executeQuery = original;
    },
  };
}

/**
 * How far a statement reaches into one table: `all` rows (the table or an index of it read whole,
 * or a range of it that no equality bounds), the rows of one `catalogue` (the only equality is on
 * the catalogue), or `keyed` rows (an equality on another column too: an id, a product).
 */
export interface TableRead {
  table: string;
  reach: 'all' | 'catalogue' | 'keyed';
  /** The engine's words for it. */
  detail: string;
}

const EXPLAINABLE = /^\s*\(?\s*(select|insert|update|delete|with)\b/i;

/** The columns a catalogue's rows are found by: every tenant's rows carry one. */
const CATALOGUE_COLUMNS = new Set(['catalogue_id', 'owner_id']);

const reachOf = (equalities: string[]): TableRead['reach'] => {
  if (equalities.length === 0) return 'all';
  return equalities.every((column) => CATALOGUE_COLUMNS.has(column)) ? 'catalogue' : 'keyed';
};

interface PgPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  /** What the planner expected a step to return, and what `explain analyze` counted. */
  'Plan Rows'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PgPlanNode[];
}

function pgReads(node: PgPlanNode, reads: TableRead[], table?: string) {
  const type = node['Node Type'];
  const relation = node['Relation Name'] ?? table;
  if (relation && /Scan$/.test(type) && type !== 'Bitmap Heap Scan') {
    // A partial index's condition alone (such as IS NOT NULL) has no equality: all its rows.
    const condition = type === 'Seq Scan' ? '' : (node['Index Cond'] ?? '');
    const equalities = [...condition.matchAll(/\((\w+) = /g)].map((match) => match[1]!);
    const how = [type, node['Index Name'], node['Index Cond'], node.Filter].filter(Boolean);
    reads.push({ table: relation, reach: reachOf(equalities), detail: how.join(' ') });
  }
  // A bitmap heap scan reads what the bitmap index scans below it (through BitmapOr, BitmapAnd)
  // found.
  const below = /^Bitmap/.test(type) ? relation : undefined;
  for (const child of node.Plans ?? []) pgReads(child, reads, below);
}

function sqliteRead(detail: string, tables: ReadonlySet<string>): TableRead | undefined {
  const match = /^(SCAN|SEARCH) (\w+)/.exec(detail);
  if (!match || !tables.has(match[2]!)) return undefined;
  const table = match[2]!;
  // A virtual table (the search index) is searched when its index has constraints.
  const virtual = /VIRTUAL TABLE INDEX \d+:(\S*)/.exec(detail);
  if (virtual) return { table, reach: virtual[1] === '' ? 'all' : 'keyed', detail };
  if (match[1] === 'SCAN') return { table, reach: 'all', detail };
  const terms = /\(([^()]*(?:\([^()]*\)[^()]*)*)\)$/.exec(detail)?.[1]?.split(' AND ') ?? [];
  const equalities = terms.flatMap((term) => /^(\w+)=\?$/.exec(term)?.[1] ?? []);
  return { table, reach: reachOf(equalities), detail };
}

/**
 * The tables a statement reads and how far, by its plan as the engine would run it now (EXPLAIN,
 * which runs nothing). A write's own row changes are not reads; what triggers and foreign keys do
 * is not in a plan. Statements that are not queries (pragmas, locks) read nothing here.
 */
export async function tableReads(
  db: DB,
  dialect: MigrationDialect,
  statement: CompiledQuery,
  tables: ReadonlySet<string>,
): Promise<TableRead[]> {
  if (!EXPLAINABLE.test(statement.sql)) return [];
  const reads: TableRead[] = [];
  if (dialect === 'postgres') {
    const explained = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PgPlanNode }] }>(
      CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]),
    );
    pgReads(explained.rows[0]!['QUERY PLAN'][0].Plan, reads);
    return reads;
  }
  const explained = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
  );
  return explained.rows.flatMap(({ detail }) => sqliteRead(detail, tables) ?? []);
}

/** The database's tables, and how many rows each holds. */
export async function tableSizes(db: DB, dialect: MigrationDialect): Promise<Map<string, number>> {
  const names =
    dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db)
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
          db,
        );
  const sizes = new Map<string, number>();
  for (const { name } of names.rows) {
    const counted = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(name)}`.execute(db);
    sizes.set(name, Number(counted.rows[0]!.n));
  }
  return sizes;
}

/** Fresh statistics, as autovacuum (PostgreSQL) would soon gather them; SQLite's app keeps none. */
export async function analyze(db: DB, dialect: MigrationDialect) {
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
}

/** Statistics of the products on both engines: SQLite's app gathers none, these plans have them. */
export async function analyzeProducts(db: DB, dialect: MigrationDialect) {
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze products' : 'analyze').execute(db);
}

/**
 * A statement's plan as text, a line a step: SQLite's details, PostgreSQL's lines. Every read of
 * products reads the pending imports, a handful of rows, once per statement (visible-products.ts):
 * a scan of that table is no scan of a catalogue.
 */
export async function planText(
  db: DB,
  dialect: MigrationDialect,
  query: CompiledQuery,
): Promise<string> {
  const explain = dialect === 'postgres' ? 'explain' : 'explain query plan';
  const result = await db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]),
  );
  return result.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
}

/**
 * A statement's plan, and what it read of `table`. On PostgreSQL as it ran (explain analyze): its
 * steps, every row its scans of the table produced or filtered out over every loop, and whether a
 * step sorts; and the rows those scans returned against the rows the planner expected them to
 * (`returned`, `expected`). SQLite plans without counts: its plan's text alone.
 */
export async function rowsRead(
  db: DB,
  dialect: MigrationDialect,
  query: CompiledQuery,
  table: string,
): Promise<{ plan: string; rows: number; sorts: boolean; returned: number; expected: number }> {
  if (dialect === 'sqlite') {
    const plan = await planText(db, dialect, query);
    return { plan, rows: 0, sorts: false, returned: 0, expected: 0 };
  }
  const result = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PgPlanNode }] }>(
    CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
  );
  const read = { plan: [] as string[], rows: 0, sorts: false, returned: 0, expected: 0 };
  const walk = (node: PgPlanNode) => {
    read.plan.push(`${node['Node Type']} on ${node['Relation Name'] ?? ''}`);
    if (node['Relation Name'] === table && /Scan$/.test(node['Node Type'])) {
      const produced = node['Actual Rows']! + (node['Rows Removed by Filter'] ?? 0);
      read.rows += produced * node['Actual Loops']!;
      read.returned += node['Actual Rows']! * node['Actual Loops']!;
      read.expected += node['Plan Rows']! * node['Actual Loops']!;
    }
    read.sorts ||= /Sort/.test(node['Node Type']);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(result.rows[0]!['QUERY PLAN'][0].Plan);
  return { ...read, plan: read.plan.join('\n') };
}

/**
 * The pages a statement read as it ran, from its shared buffers, hit or read (PostgreSQL, explain
 * analyze), and its plan's steps.
 */
export async function pagesRead(
  db: DB,
  query: CompiledQuery,
): Promise<{ pages: number; plan: string }> {
  type Node = PgPlanNode & { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
  const result = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: Node }] }>(
    CompiledQuery.raw(`explain (analyze, buffers, format json) ${query.sql}`, [
      ...query.parameters,
    ]),
  );
  const top = result.rows[0]!['QUERY PLAN'][0].Plan;
  const steps: string[] = [];
  const walk = (node: PgPlanNode) => {
    steps.push(`${node['Node Type']} ${node['Index Name'] ?? node['Relation Name'] ?? ''}`);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(top);
  return { pages: top['Shared Hit Blocks'] + top['Shared Read Blocks'], plan: steps.join('\n') };
}

/**
 * A catalogue (its owner's, who signs up by `email`) of `count` products numbered from 0, plain
 * but for what `more` gives each, loaded in one write.
 */
export async function numberedCatalogue(
  database: { db: DB; dialect: MigrationDialect },
  email: string,
  count: number,
  more: (i: number) => Partial<NewProduct> = () => ({}),
): Promise<string> {
  const name = email.split('@')[0]!;
  const catalogueId = await insertUser(database.db, { name, email, passwordHash: 'x' }, 0);
  await bulkLoad(
    database,
    catalogueId,
    Array.from({ length: count }, (_, i) => ({
      name: `Product ${i}`,
      description: 'Plain',
      priceCents: (i % 700) + 1,
      stock: 0,
      image: null,
      createdAt: i,
      ...more(i),
    })),
  );
  return catalogueId;
}

/**
 * A warehouse of 10 aisles of 20 bins in the catalogue, and the catalogue's i-th product (by
 * creation) in the bins `i + step` for each step (from the first, round), (i % 12) + 1 units in
 * each: its stock their sum.
 */
export async function stockedWarehouse(db: DB, catalogueId: string, steps: number[]) {
  const warehouse = randomUUID();
  const rows = [{ id: warehouse, parent: null as string | null }];
  const aisles: string[] = [];
  const bins: string[] = [];
  for (let a = 0; a < 10; a += 1) {
    const aisle = randomUUID();
    aisles.push(aisle);
    rows.push({ id: aisle, parent: warehouse });
    for (let b = 0; b < 20; b += 1) {
      const bin = randomUUID();
      bins.push(bin);
      rows.push({ id: bin, parent: aisle });
    }
  }
  const code = catalogueId.slice(0, 8);
  await db
    .insertInto('locations')
    .values(
      rows.map((row, i) => ({
        id: row.id,
        catalogue_id: catalogueId,
        parent_id: row.parent,
        name: `Place ${i}`,
        name_key: `place ${i}`,
        code: `P-${code}-${i}`,
        code_key: `p-${code}-${i}`,
        created_at: 0,
        updated_at: 0,
      })),
    )
    .execute();
  const levels = (await productIdsOf(db, catalogueId)).flatMap((id, i) =>
    steps.map((step) => ({
      product_id: id,
      location_id: bins[(i + step) % bins.length]!,
      catalogue_id: catalogueId,
      quantity: (i % 12) + 1,
    })),
  );
  for (let i = 0; i < levels.length; i += 2000) {
    await db
      .insertInto('stock_levels')
      .values(levels.slice(i, i + 2000))
      .execute();
  }
  await db
    .updateTable('products')
    .set({ stock: sql`(select sum(quantity) from stock_levels where product_id = products.id)` })
    .where('catalogue_id', '=', catalogueId)
    .execute();
  return { warehouse, aisles, bins };
}
