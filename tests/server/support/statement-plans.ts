import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, DefaultQueryExecutor, sql } from 'kysely';
import type { DB } from '../../../src/server/infra/db/handle.js';
import type { MigrationDialect } from '../../../src/server/infra/db/migrate.js';

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
