import type { ProductSort } from '../../../../shared/constants.js';
import type { MigrationDialect } from '../../../infra/db/migrate.js';
import type { PageOptions, ProductQueries, SummaryPart } from '../queries.js';
import type { ListRow } from '../rows.js';
import { PostgresSearch } from './postgres-search.js';
import { SqliteSearch, type SearchLimits } from './sqlite-search.js';

/** A page of a search: its folded text (never empty), filters, start and size. */
export type SearchOptions = Omit<PageOptions, 'until' | 'rowids'>;

/** What a search's summary adds up: the catalogue's rows that hold the text and pass the filters. */
export type SummedSearch = Pick<PageOptions, 'text' | 'stock' | 'tag'>;

/**
 * How a text search runs on one engine. Both give what one statement would; they differ in what
 * they protect: SQLite's event loop (bounded statements, taking turns) or PostgreSQL's pool.
 */
export interface SearchStrategy {
  /** Up to `rows` matches in the sort's order, past `after`. */
  page(catalogueId: string, sort: ProductSort, options: SearchOptions): Promise<ListRow[]>;
  /** The parts of a search's summary, each counted by one statement. */
  summary(catalogueId: string, search: SummedSearch): Promise<SummaryPart[]>;
}

export function searchStrategy(
  dialect: MigrationDialect,
  queries: ProductQueries,
  limits: SearchLimits,
): SearchStrategy {
  return dialect === 'sqlite' ? new SqliteSearch(queries, limits) : new PostgresSearch(queries);
}
