import pLimit from 'p-limit';
import type { ProductSort } from '../../../../shared/constants.js';
import type { ProductQueries, SummaryPart } from '../queries.js';
import type { ListRow } from '../rows.js';
import type { SearchOptions, SearchStrategy, SummedSearch } from './strategy.js';

/**
 * On PostgreSQL a search runs in the database server, off the event loop, but holds one of the
 * pool's 10 connections while it runs: at most this many searches run at once in a process, so
 * however many an attacker sends, the other connections stay free for everybody else.
 */
const SEARCH_SLOTS = 3;

/**
 * Searches on PostgreSQL: one statement each, run in the database server (its pg_trgm index finds
 * the candidates), at most SEARCH_SLOTS at a time.
 */
export class PostgresSearch implements SearchStrategy {
  private readonly slots = pLimit(SEARCH_SLOTS);

  constructor(private readonly queries: ProductQueries) {}

  page(catalogueId: string, sort: ProductSort, options: SearchOptions): Promise<ListRow[]> {
    return this.slots(() => this.queries.pageQuery(catalogueId, sort, options).execute());
  }

  async summary(catalogueId: string, search: SummedSearch): Promise<SummaryPart[]> {
    return [await this.slots(() => this.queries.sum(catalogueId, search))];
  }
}
