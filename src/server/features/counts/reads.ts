import { sql } from 'kysely';
import type { CatalogueRole } from '../../../shared/catalogue-roles.js';
import {
  COUNT_LIST_MAX,
  UNCOUNTED_SHOWN_MAX,
  type Count,
  type CountDetail,
} from '../../../shared/schemas/counts/counts.js';
import type { DB } from '../../infra/db/handle.js';
import type { CatalogueWrite, WriteOutcome } from '../writes/index.js';
import { hidesExpected, presentCount, presentLine, signedMoney } from './rows.js';
import type { CountRow, CountRowWithCreator, LineRow } from './rows.js';
import { uncountedPlaces, uncountedTotal } from './scope.js';

/** What the reads need of the app: the catalogue's locations' paths and subtrees. */
export interface CountPlaces {
  pathOf(catalogueId: string, locationId: string): Promise<string | null>;
  /** The paths of those of these locations that are the catalogue's, in one read. */
  pathsOf(catalogueId: string, locationIds: string[]): Promise<Map<string, string>>;
  subtree(catalogueId: string, locationId: string): Promise<string[] | undefined>;
}

const countColumns = (db: DB) =>
  db
    .selectFrom('counts')
    .leftJoin('users', 'users.id', 'counts.created_by')
    .selectAll('counts')
    .select('users.name as creator_name');

/**
 * The catalogue's newest counts, down (catalogue, created_at, id): at most COUNT_LIST_MAX, the
 * paths of their locations in one read whatever their number.
 */
export async function listCounts(
  db: DB,
  places: CountPlaces,
  catalogueId: string,
): Promise<Count[]> {
  const rows = (await countColumns(db)
    .where('counts.catalogue_id', '=', catalogueId)
    .orderBy('counts.created_at', 'desc')
    .orderBy('counts.id', 'desc')
    .limit(COUNT_LIST_MAX)
    .execute()) as CountRowWithCreator[];
  const scoped = rows.flatMap((row) => row.scope_location_id ?? []);
  const paths =
    scoped.length > 0 ? await places.pathsOf(catalogueId, scoped) : new Map<string, string>();
  return rows.map((row) =>
    presentCount(
      row,
      row.scope_kind === 'location' ? (paths.get(row.scope_location_id!) ?? null) : null,
    ),
  );
}

export async function findCount(db: DB, catalogueId: string, countId: string) {
  return (await countColumns(db)
    .where('counts.catalogue_id', '=', catalogueId)
    .where('counts.id', '=', countId)
    .executeTakeFirst()) as CountRowWithCreator | undefined;
}

export async function withPath(places: CountPlaces, row: CountRowWithCreator): Promise<Count> {
  const path =
    row.scope_kind === 'location'
      ? await places.pathOf(row.catalogue_id, row.scope_location_id!)
      : null;
  return presentCount(row, path);
}

/**
 * The outcome of a count started or cancelled: the count as it now is, answered with `message`,
 * and its screens told its status. Neither touches stock, so cached reads keep the version.
 */
export async function countStatusOutcome(
  w: CatalogueWrite,
  places: CountPlaces,
  countId: string,
  answer: { status: 200 | 201; message: string; to: 'open' | 'cancelled' },
): Promise<WriteOutcome> {
  const row = (await findCount(w.trx, w.catalogueId, countId))!;
  return {
    answer: {
      status: answer.status,
      body: { message: answer.message, count: await withPath(places, row) },
    },
    keepsVersion: true,
    live: { kind: 'count.updated', data: { countId, status: answer.to, stockChanged: false } },
  };
}

/** A page of a count's lines in (product, location) order, after the cursor's line. */
export function linesQuery(db: DB, countId: string, after: [string, string] | undefined) {
  return db
    .selectFrom('count_lines as cl')
    .innerJoin('products as p', 'p.id', 'cl.product_id')
    .leftJoin('users as u', 'u.id', 'cl.counted_by')
    .select([
      'cl.product_id',
      'cl.location_id',
      'cl.expected',
      'cl.counted',
      'cl.counted_by',
      'cl.counted_at',
      'p.name',
      'p.sku',
      'p.barcode',
      'p.cost_cents',
      'u.name as counter_name',
    ])
    .where('cl.count_id', '=', countId)
    .$if(after !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb('cl.product_id', '>', after![0]),
          eb.and([eb('cl.product_id', '=', after![0]), eb('cl.location_id', '>', after![1])]),
        ]),
      ),
    )
    .orderBy('cl.product_id')
    .orderBy('cl.location_id');
}

/**
 * A count with a page of its lines, and (where `expected` shows) what the differences add up
 * to and the places of its scope never counted. Every read is the count's: its lines down its
 * key, its scope's places down theirs; none reads the rest of the catalogue.
 */
export async function countDetail(
  db: DB,
  places: CountPlaces,
  row: CountRowWithCreator,
  role: CatalogueRole,
  page: { cursor?: string | undefined; limit: number },
): Promise<CountDetail> {
  const hidden = hidesExpected(row, role);
  const after = page.cursor?.split(':') as [string, string] | undefined;
  const rows = (await linesQuery(db, row.id, after)
    .limit(page.limit + 1)
    .execute()) as LineRow[];
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  const detail: CountDetail = {
    count: await withPath(places, row),
    expectedHidden: hidden,
    lines: shown.map((line) => presentLine(line, hidden)),
    nextCursor: more && last ? `${last.product_id}:${last.location_id}` : null,
  };
  if (hidden) return detail;
  const summary = await summaryOf(db, row.id);
  return {
    ...detail,
    summary,
    ...(row.status === 'open' || row.status === 'review'
      ? { uncounted: await uncountedOf(db, places, row, summary.lines) }
      : {}),
  };
}

/** Σ variance, and Σ variance × cost both signed and whole, over the count's lines. */
async function summaryOf(db: DB, countId: string) {
  const rows = await db
    .selectFrom('count_lines as cl')
    .innerJoin('products as p', 'p.id', 'cl.product_id')
    .select(['cl.counted', 'cl.expected', 'p.cost_cents'])
    .where('cl.count_id', '=', countId)
    .execute();
  let units = 0;
  let value = 0n;
  let difference = 0n;
  for (const { counted, expected, cost_cents } of rows) {
    const variance = counted - expected;
    units += variance;
    if (cost_cents === null || variance === 0) continue;
    const worth = BigInt(variance) * BigInt(cost_cents);
    value += worth;
    difference += worth < 0n ? -worth : worth;
  }
  return {
    lines: rows.length,
    varianceUnits: units,
    varianceValue: signedMoney(value),
    differenceValue: signedMoney(difference),
  };
}

/** How many places of the scope were never counted, and the first of them. */
async function uncountedOf(db: DB, places: CountPlaces, row: CountRow, lines: number) {
  const subtree =
    row.scope_kind === 'location'
      ? ((await places.subtree(row.catalogue_id, row.scope_location_id!)) ?? [])
      : [];
  const from = uncountedPlaces(row, subtree);
  const total = await uncountedTotal(db, row, subtree, lines);
  // By the product's own id: a catalogue's places come from its products in that order.
  const { rows } = await sql<{
    product_id: string;
    location_id: string;
    quantity: number;
    name: string;
  }>`select sl.product_id, sl.location_id, sl.quantity, p.name from ${from}
    order by p.id, sl.location_id limit ${UNCOUNTED_SHOWN_MAX}`.execute(db);
  return {
    total,
    places: rows.map((place) => ({
      productId: place.product_id,
      name: place.name,
      locationId: place.location_id,
      expected: place.quantity,
    })),
  };
}
