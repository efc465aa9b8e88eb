/**
 * `npm run bench:totals-ab`: what keeping a location's totals by trigger (ADR 046) costs a write,
 * A/B in one process: the same database with the triggers and without them, in turn.
 *
 * A fresh database (BENCH_ENGINE `sqlite` or `postgres`; BENCH_DATABASE_URL the server, a database
 * of its own made and dropped), migrated as the app is: a 1,000-product catalogue, a warehouse of
 * 10 aisles of 20 bins, each product's stock in 3 bins of it. Without the triggers means every
 * trigger named `location_totals_*` dropped and made again from its own SQL (SQLite) or disabled
 * and enabled (PostgreSQL): whatever the newest migration made, with nothing of it named here.
 * Each write is undone in the same round (a change +1 then -1, a transfer out and back, a posting
 * then its undo), so every round starts from the same rows and the kept tables stay true while
 * the triggers are off; the end checks the totals are what they were at the start.
 *
 * A warm-up round with the triggers, then BENCH_ROUNDS (5) rounds each way, interleaved (off, on,
 * on, off, off, on, …). Each round: 10 stock changes at a bin; a transfer of 500 lines between
 * bins holding each product (quantities changed in place) and back; one of 500 lines to a bin
 * holding none (rows made) and back (rows deleted); a count posting of 1,000 lines at the
 * products' bins (in place) and its undo; one of 1,000 lines at a new shelf (rows made) and its
 * undo. SQLite: CPU ms of this process (the database runs in it). PostgreSQL: wall ms and CPU ms
 * of this process plus its connections' backends (/proc, 10 ms ticks). Medians of the rounds.
 * BENCH_OUT=<file> also writes the table there. BENCH_EXPLAIN=<words of a write's name>
 * (PostgreSQL) then makes that write once more, and the one after it (its undo), with
 * auto_explain on in its transaction: every statement's plan, the triggers' nested ones too, with
 * their times, in the server's log (not in the figures).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { postCount, reverseCountPosting } from '../src/server/features/counts/writes.js';
import { bulkLoad } from '../src/server/features/products/import-writes.js';
import { changeStock } from '../src/server/features/products/stock-writes.js';
import { transferStock } from '../src/server/features/products/transfers.js';
import { writeCatalogue, type CatalogueWrite } from '../src/server/features/writes/index.js';
import type { DatabaseHandle } from '../src/server/infra/db/handle.js';
import { openDatabase } from '../src/server/infra/db/open.js';
import { databaseUrl, onAdminConnection } from '../tests/server/support/database-template.js';
import { cpuReader } from './scale-cpu.js';
import { products, seedUser } from './seed.js';
import { median } from './median.js';
import { insertCountLines } from './scale-counts.js';

const ENGINE = process.env.BENCH_ENGINE ?? 'sqlite';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const POSTGRES = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PRODUCTS = 1_000;
const AISLES = 10;
const BINS = 20;
const CHANGES = 10;
const TRANSFER = 500;

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');

const admin = (query: string) => onAdminConnection(POSTGRES, query);

async function open() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-totals-ab-'));
  if (ENGINE === 'sqlite') {
    return { database: await openDatabase({ dataDir }), url: undefined, dataDir, name: '' };
  }
  const name = `stockroom_totals_ab_${process.pid}`;
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = databaseUrl(POSTGRES, name);
  return { database: await openDatabase({ dataDir, databaseUrl: url }), url, dataDir, name };
}

/** The catalogue, its warehouse and two counts (in place, and at a new shelf), ready to post. */
async function seed(database: DatabaseHandle) {
  const { db } = database;
  const user = await seedUser(db, 'totals-ab@bench.test');
  const catalogueId = user.id;
  // At least 3 units each, so that every product is in 3 bins.
  await bulkLoad(
    database,
    catalogueId,
    [...products(PRODUCTS)].map((p) => ({ ...p, stock: p.stock + 3 })),
  );
  const now = Date.now();
  const location = (parent: string | null, name: string, code: string) => ({
    id: randomUUID(),
    catalogue_id: catalogueId,
    parent_id: parent,
    name,
    name_key: name.toLowerCase(),
    code,
    code_key: code.toLowerCase(),
    created_at: now,
    updated_at: now,
  });
  const warehouse = location(null, 'Warehouse', 'WH');
  const shelf = location(null, 'Counted shelf', 'SHELF');
  const aisles = Array.from({ length: AISLES }, (_, a) =>
    location(warehouse.id, `Aisle ${a}`, `AI-${a}`),
  );
  const bins = aisles.flatMap((aisle, a) =>
    Array.from({ length: BINS }, (_, b) => location(aisle.id, `Bin ${a}-${b}`, `BIN-${a}-${b}`)),
  );
  // A bin holding nothing: where a transfer makes rows.
  const spare = location(aisles[0]!.id, 'Spare bin', 'BIN-SPARE');
  await db.insertInto('locations').values([warehouse, shelf]).execute();
  await db.insertInto('locations').values(aisles).execute();
  await db
    .insertInto('locations')
    .values([...bins, spare])
    .execute();
  const held = await db
    .selectFrom('products')
    .select(['id', 'stock'])
    .where('catalogue_id', '=', catalogueId)
    .orderBy('created_at')
    .execute();
  // From the default location to 3 bins in different aisles.
  const levels = held.flatMap(({ id, stock }, n) => {
    const third = Math.floor(stock / 3);
    return [third, third, stock - 2 * third].map((quantity, k) => ({
      product_id: id,
      location_id: bins[(n * 7 + k * 67) % bins.length]!.id,
      catalogue_id: catalogueId,
      quantity,
    }));
  });
  await db.deleteFrom('stock_levels').where('location_id', '=', catalogueId).execute();
  for (let i = 0; i < levels.length; i += 500) {
    await db
      .insertInto('stock_levels')
      .values(levels.slice(i, i + 500))
      .execute();
  }
  await sql`update locations set units = coalesce(
      (select sum(quantity) from stock_levels where location_id = locations.id), 0)
    where catalogue_id = ${catalogueId}`.execute(db);
  const count = async (
    scope: { id: string },
    lines: typeof levels,
    found: (q: number) => number,
  ) => {
    const id = randomUUID();
    await db
      .insertInto('counts')
      .values({
        id,
        catalogue_id: catalogueId,
        name: `Count ${scope.id}`,
        scope_kind: 'location',
        scope_location_id: scope.id,
        scope_tag: null,
        scope_key: `location:${scope.id}`,
        blind: 0,
        status: 'review',
        created_by: catalogueId,
        created_at: now,
        updated_at: now,
        posted_at: null,
        lines: lines.length,
      })
      .execute();
    await insertCountLines(
      db,
      { countId: id, catalogueId, userId: catalogueId, at: now },
      lines.map((line) => ({
        product: line.product_id,
        location: line.location_id,
        expected: line.quantity,
        counted: found(line.quantity),
      })),
    );
    return id;
  };
  const first = levels.filter((_, i) => i % 3 === 0);
  const inPlace = await count(warehouse, first, (q) => q + 2);
  const atShelf = await count(
    shelf,
    first.map((level) => ({ ...level, location_id: shelf.id, quantity: 0 })),
    () => 2,
  );
  if (database.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  // Per product its 3 bins: the transfers' lines.
  const binsOf = new Map<string, string[]>();
  for (const level of levels)
    (binsOf.get(level.product_id) ?? binsOf.set(level.product_id, []).get(level.product_id)!).push(
      level.location_id,
    );
  const moved = [...binsOf].slice(0, TRANSFER);
  return {
    writer: { id: catalogueId, actorId: catalogueId },
    counts: { inPlace, atShelf },
    between: moved.map(([productId, [from, to]]) => ({ productId, from: from!, to: to! })),
    toEmpty: moved.map(([productId, [from]]) => ({ productId, from: from!, to: spare.id })),
    changes: moved.slice(0, CHANGES).map(([productId, [at]]) => ({ productId, at: at! })),
  };
}

/** Turns the kept totals' triggers off and on again, whichever migration made them. */
async function triggers({ db, dialect }: DatabaseHandle) {
  if (dialect === 'sqlite') {
    const made = (
      await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
        where type = 'trigger' and name like 'location_totals_%' order by name`.execute(db)
    ).rows;
    return {
      names: made.map((t) => t.name),
      // In a transaction: on the writer's connection, whose schema is the one changed.
      off: () =>
        db.transaction().execute(async (trx) => {
          for (const t of made) await sql.raw(`drop trigger ${t.name}`).execute(trx);
        }),
      on: () =>
        db.transaction().execute(async (trx) => {
          for (const t of made) await sql.raw(t.sql).execute(trx);
        }),
    };
  }
  const made = (
    await sql<{ name: string; tbl: string }>`select tgname as name, tgrelid::regclass::text as tbl
      from pg_trigger where tgname like 'location_totals_%' and not tgisinternal
      order by tgname`.execute(db)
  ).rows;
  const each = (verb: string) => async () => {
    for (const t of made)
      await sql.raw(`alter table ${t.tbl} ${verb} trigger ${t.name}`).execute(db);
  };
  return { names: made.map((t) => t.name), off: each('disable'), on: each('enable') };
}

async function main() {
  console.log(`${ENGINE}, load ${load()}`);
  const started = { load: load(), at: new Date().toISOString() };
  const { database, url, dataDir, name } = await open();
  const cpu = await cpuReader(process.pid, url);
  try {
    const { db, dialect } = database;
    const seeded = await seed(database);
    const switches = await triggers(database);
    if (switches.names.length === 0) throw new Error('no location_totals_* trigger to turn off');
    console.log(`triggers: ${switches.names.join(', ')}`);
    // Each sum of money as one number: its three parts (low + middle × 2^16 + high × 2^32) are
    // split differently by changes of either sign.
    const totalsNow = async () => {
      const { rows } = await sql<Record<string, number | string>>`select * from location_totals
        order by location_id, part`.execute(db);
      return JSON.stringify(
        rows.map((row) => {
          const money = (name: string) =>
            (
              BigInt(row[`${name}_low`]!) +
              (BigInt(row[`${name}_middle`]!) << 16n) +
              (BigInt(row[`${name}_high`]!) << 32n)
            ).toString();
          return [row.location_id, row.part, row.count, row.units, row.costed, row.to_reorder]
            .map(String)
            .concat(money('value'), money('cost'));
        }),
      );
    };
    const before = await totalsNow();

    const used = async () => {
      const { user, system } = process.cpuUsage();
      const backends = [...(await cpu())].filter(([t]) => !t.startsWith(`${process.pid}/`));
      return (user + system) / 1000 + backends.reduce((sum, [, ns]) => sum + ns, 0) / 1e6;
    };
    let explain = false;
    const write = (work: (w: CatalogueWrite) => Promise<unknown>) =>
      writeCatalogue({ db, dialect }, seeded.writer, Date.now(), async (w) => {
        if (explain) {
          await sql`load 'auto_explain'`.execute(w.trx);
          for (const setting of [
            'log_min_duration = 0',
            'log_analyze = on',
            'log_nested_statements = on',
          ])
            await sql.raw(`set local auto_explain.${setting}`).execute(w.trx);
        }
        await work(w);
        return { answer: { status: 200, body: {} } };
      });
    const done = (result: { outcome: string }, what: string) => {
      if (result.outcome !== 'done') throw new Error(`${what}: ${result.outcome}`);
    };
    const transfer = (lines: { productId: string; from: string; to: string }[], back: boolean) =>
      write(async (w) =>
        done(
          await transferStock(
            w,
            lines.map((l) => ({
              productId: l.productId,
              from: back ? l.to : l.from,
              to: back ? l.from : l.to,
              quantity: 1,
            })),
          ),
          'transfer',
        ),
      );
    const ops: [string, () => Promise<unknown>][] = [
      [
        'a stock change at a bin (each)',
        async () => {
          for (const delta of [1, -1])
            for (const { productId, at } of seeded.changes.slice(0, CHANGES / 2))
              await write(async (w) =>
                done(
                  await changeStock(w, productId, {
                    delta,
                    reason: null,
                    note: null,
                    locationId: at,
                  }),
                  'stock change',
                ),
              );
        },
      ],
      ['a transfer of 500 lines, in place', () => transfer(seeded.between, false)],
      ['… and back', () => transfer(seeded.between, true)],
      ['a transfer of 500 lines to an empty bin', () => transfer(seeded.toEmpty, false)],
      ['… and back (rows deleted)', () => transfer(seeded.toEmpty, true)],
      ...(
        [
          ['in place', seeded.counts.inPlace],
          ['at a new shelf', seeded.counts.atShelf],
        ] as const
      ).flatMap(([where, countId]): [string, () => Promise<unknown>][] => [
        [
          `a count posting of 1,000 lines, ${where}`,
          () => write((w) => postCount(w, countId, { uncountedAsZero: false, subtree: [] })),
        ],
        [
          `… its undo (${where})`,
          () => write(async (w) => done(await reverseCountPosting(w, countId), 'undo')),
        ],
      ]),
    ];
    const perOp = (name: string) => (name.endsWith('(each)') ? CHANGES : 1);
    type Figures = { cpu: number; wall: number };
    const results = new Map<string, { with: Figures[]; without: Figures[] }>();
    const round = async (kept: boolean, record: boolean) => {
      for (const [opName, run] of ops) {
        const cpu0 = await used();
        const wall0 = performance.now();
        await run();
        const wall = (performance.now() - wall0) / perOp(opName);
        const ms = ((await used()) - cpu0) / perOp(opName);
        if (!record) continue;
        const at =
          results.get(opName) ?? results.set(opName, { with: [], without: [] }).get(opName)!;
        (kept ? at.with : at.without).push({ cpu: ms, wall });
      }
    };
    await round(true, false);
    let kept = true;
    for (let i = 0; i < 2 * ROUNDS; i += 1) {
      // off, on, on, off, off, on, …
      const next = i % 4 === 1 || i % 4 === 2;
      if (next !== kept) await (next ? switches.on() : switches.off());
      kept = next;
      await round(kept, true);
      console.log(`  round ${i + 1} (${kept ? 'with' : 'without'}) done, load ${load()}`);
    }
    if (!kept) await switches.on();
    if ((await totalsNow()) !== before) throw new Error('the totals differ from the start');
    const explained = ops.findIndex(([opName]) => opName.includes(process.env.BENCH_EXPLAIN!));
    if (process.env.BENCH_EXPLAIN && dialect === 'postgres' && explained >= 0) {
      explain = true;
      await ops[explained]![1]();
      explain = false;
      await ops[explained + 1]![1]();
      console.log(`plans of "${ops[explained]![0]}": in the PostgreSQL server log`);
    }

    const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
    const measure = dialect === 'sqlite' ? (['cpu'] as const) : (['wall', 'cpu'] as const);
    const head = measure.map((m) =>
      m === 'cpu' ? (dialect === 'sqlite' ? 'CPU' : 'CPU, with backends') : 'wall',
    );
    const lines = [
      `${dialect}, ${started.at}, load ${started.load} before and ${load()} after; ${ROUNDS} rounds each way, ms, median of the rounds, with / without (ratio)`,
      '',
      `| write | ${head.join(' | ')} |`,
      `| --- | ${head.map(() => '---').join(' | ')} |`,
      ...[...results].map(
        ([opName, r]) =>
          `| ${opName} | ${measure
            .map((m) => {
              const a = median(r.with.map((f) => f[m]));
              const b = median(r.without.map((f) => f[m]));
              return `${fmt(a)} / ${fmt(b)} (${(a / b).toFixed(2)} ×)`;
            })
            .join(' | ')} |`,
      ),
      '',
      'Rounds (with; without):',
      '',
      ...[...results].map(
        ([opName, r]) =>
          `- ${opName}: ${measure
            .map(
              (m) =>
                `${m} ${r.with.map((f) => fmt(f[m])).join(', ')}; ${r.without.map((f) => fmt(f[m])).join(', ')}`,
            )
            .join(' · ')}`,
      ),
    ];
    console.log(lines.join('\n'));
    if (process.env.BENCH_OUT) await writeFile(process.env.BENCH_OUT, `${lines.join('\n')}\n`);
  } finally {
    await cpu.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    if (name) await admin(`drop database if exists ${name} with (force)`);
  }
}

await main();
