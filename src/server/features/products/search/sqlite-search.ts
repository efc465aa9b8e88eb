import { setImmediate } from 'node:timers/promises';
import type { ProductSort, StockFilter } from '../../../../shared/constants.js';
import type { Position } from '../cursor.js';
import { trigramQuery } from '../keys.js';
import { keysetPages } from '../page-loop.js';
import type { HeldIn, ProductQueries, SummaryPart } from '../queries.js';
import type { ListRow } from '../rows.js';
import type { SearchOptions, SearchStrategy, SummedSearch } from './strategy.js';

/**
 * How a search on SQLite is cut into statements of bounded cost (ADR 007): a statement runs on the
 * event loop from start to end. Checking one row costs at most about 0.2 ms: a key of at most
 * 10,401 characters (3 bytes each at worst) against a query of at most 200 (see keys.ts).
 */
export interface SearchLimits {
  /** Rows one statement checks at most: about 20 ms at worst, however hostile the catalogue. */
  windowRows: number;
  /**
   * When the trigram index finds at most this many products (of any catalogue) holding every trigram
   * of a search, those candidates are checked and the page is read from the matches; beyond it,
   * the text is common enough that reading the catalogue's rows in order finds a page sooner.
   */
  candidatesMax: number;
}

export const SEARCH_LIMITS: SearchLimits = { windowRows: 100, candidatesMax: 1000 };

/**
 * The statements of every search on SQLite in this process run one at a time, each after a turn
 * of the event loop: however many searches run at once, other requests wait for one statement at
 * most, not one per search.
 */
class SearchLane {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(statement: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(async () => {
      await setImmediate();
      return statement();
    });
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}
const searchLane = new SearchLane();

/**
 * Searches on SQLite, in statements of bounded cost (ADR 007) that take turns in the search lane,
 * with the same result as one statement.
 */
export class SqliteSearch implements SearchStrategy {
  constructor(
    private readonly queries: ProductQueries,
    private readonly limits: SearchLimits,
  ) {}

  /**
   * A search on SQLite, in statements of bounded cost that take turns in the search lane, with the
   * same result as one statement. From 3 characters, the trigram index is asked first which
   * products may hold the text: when they are few, those are checked and the page is read from the
   * matches. Otherwise (too short, or too common to narrow) the catalogue's rows are read in the
   * sort's order, one window at a time, until the page is full.
   */
  async page(catalogueId: string, sort: ProductSort, options: SearchOptions): Promise<ListRow[]> {
    const matches = await this.sqliteMatches(catalogueId, sort, options);
    if (matches === undefined) return this.searchInWindows(catalogueId, sort, options);
    if (matches.length === 0) return [];
    const page = this.queries.amongQuery(catalogueId, sort, matches, options.rows, options.times);
    return searchLane.run(() => page.execute());
  }

  /**
   * The owner's rows past `after` that contain the text and pass the filter, by rowid, when the
   * trigram index narrows the text to a few candidates (SQLite), checked a window at a time;
   * undefined when it does not (fewer than 3 characters, or too common).
   */
  private async sqliteMatches(
    catalogueId: string,
    sort: ProductSort,
    options: {
      text: string;
      stock?: StockFilter | undefined;
      tag?: string | undefined;
      held?: HeldIn | undefined;
      after?: Position | undefined;
    },
  ): Promise<number[] | undefined> {
    const trigrams = trigramQuery(options.text);
    if (trigrams === undefined) return undefined;
    const { candidatesMax, windowRows } = this.limits;
    const query = this.queries.candidatesQuery(trigrams, candidatesMax + 1);
    const { rows } = await searchLane.run(() => query.execute(this.queries.db));
    if (rows.length > candidatesMax) return undefined;
    const candidates = rows.map((row) => row.rowid);
    const matches: number[] = [];
    for (let i = 0; i < candidates.length; i += windowRows) {
      const window = candidates.slice(i, i + windowRows);
      const check = this.queries.checkQuery(
        catalogueId,
        sort,
        options.text,
        options.after,
        window,
        options.stock,
        options.tag,
        options.held,
      );
      const found = await searchLane.run(() => check.execute());
      matches.push(...found.map((row) => row.rowid));
    }
    return matches;
  }

  /** The page from the catalogue's rows in the sort's order, windowRows at a time. */
  private async searchInWindows(
    catalogueId: string,
    sort: ProductSort,
    options: SearchOptions,
  ): Promise<ListRow[]> {
    const found: ListRow[] = [];
    const windows = keysetPages(async (after) => {
      const rows = options.rows - found.length;
      const { page, until } = await searchLane.run(() =>
        this.searchWindow(catalogueId, sort, { ...options, after, rows }),
      );
      return { rows: page, next: until };
    }, options.after);
    for await (const page of windows) {
      found.push(...page);
      if (found.length === options.rows) break;
    }
    return found;
  }

  /** Up to `rows` matches among the windowRows rows past `after`, and the window's end. */
  private async searchWindow(catalogueId: string, sort: ProductSort, options: SearchOptions) {
    const until = await this.windowEnd(
      catalogueId,
      sort,
      options.after,
      options.stock,
      options.tag,
      options.held,
    );
    const page: ListRow[] = await this.queries
      .pageQuery(catalogueId, sort, { ...options, until })
      .execute();
    return { page, until };
  }

  private windowEnd(
    catalogueId: string,
    sort: ProductSort,
    after: Position | undefined,
    stock: StockFilter | undefined,
    tag: string | undefined,
    held?: HeldIn,
  ) {
    const { windowRows } = this.limits;
    return this.queries.windowEnd(catalogueId, sort, after, stock, tag, windowRows, held);
  }

  /** A search's totals, over the same bounded statements as its pages, summed by the caller. */
  async summary(catalogueId: string, { text, stock, tag }: SummedSearch): Promise<SummaryPart[]> {
    const sum = (options: Parameters<ProductQueries['sum']>[1]) =>
      this.queries.sum(catalogueId, options);
    const matches = await this.sqliteMatches(catalogueId, 'newest', { text, stock, tag });
    const parts: SummaryPart[] = [];
    if (matches !== undefined) {
      const { windowRows } = this.limits;
      for (let i = 0; i < matches.length; i += windowRows) {
        const rowids = matches.slice(i, i + windowRows);
        parts.push(await searchLane.run(() => sum({ rowids })));
      }
      return parts;
    }
    const windows = keysetPages(async (after) => {
      const { part, until } = await searchLane.run(async () => {
        const end = await this.windowEnd(catalogueId, 'newest', after, stock, tag);
        return { part: await sum({ text, stock, tag, after, until: end }), until: end };
      });
      return { rows: [part], next: until };
    });
    for await (const [part] of windows) parts.push(part!);
    return parts;
  }
}
