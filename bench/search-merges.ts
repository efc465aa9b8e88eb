/**
 * What a product write costs in SQLite's search index (FTS5) and how much merging it does, at
 * 1,000 and 100,000 products of another tenant, and what the app's search statements cost then:
 * `npm run bench:search-merges [others] [ordinary|random] [writes] [variant]`, or the whole table
 * without arguments. CPU time of this process per statement (better-sqlite3 runs on this thread),
 * in milliseconds. Results: bench/results-search-merges.md.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { trigramQuery } from '../src/server/features/products/keys.js';
import { openDatabase } from '../src/server/infra/db/open.js';

const WORDS = (
  'lamp steel oak brass cable hook shelf tray glass cotton linen bolt screw nut chair table ' +
  'desk stool rack box crate jar lid bowl cup mug plate'
).split(' ');

/** A description as a shop writes one: about 200 characters of words and numbers. */
function ordinary(i: number) {
  let text = '';
  while (text.length < 200) {
    text += `${WORDS[(i * 7 + text.length * 13) % WORDS.length]} ${(i * 31 + text.length) % 997} `;
  }
  return text;
}

/** The longest description of random text, as the search key folds it (lower case). */
const randomText = () => randomBytes(5000).toString('base64url').slice(0, 5000).toLowerCase();

const setting = (name: string, value: number) =>
  `insert into product_search(product_search, rank) values ('${name}', ${value})`;

/** FTS5 settings, and the pages of a merge step run after every 10 writes (none: no job). */
const VARIANTS: Record<string, { settings: string[]; mergePages?: number }> = {
  // FTS5's defaults: what the index had before migration 047.
  automerge: { settings: [setting('automerge', 4)] },
  'automerge-pgsz1000': { settings: [setting('automerge', 4), setting('pgsz', 1000)] },
  'no-merging': { settings: [setting('automerge', 0)] },
  'steps-25': { settings: [setting('automerge', 0)], mergePages: 25 },
  'steps-50': { settings: [setting('automerge', 0)], mergePages: 50 },
  'steps-100': { settings: [setting('automerge', 0)], mergePages: 100 },
};

const work = mkdtempSync(path.join(tmpdir(), 'search-merges-'));

/** A migrated database with `others` products of another catalogue, made once per size. */
async function baseFile(others: number) {
  const dir = path.join(work, `base-${others}`);
  const file = path.join(dir, 'stockroom.db');
  if (existsSync(file)) return file;
  await (await openDatabase({ dataDir: dir })).close();
  const db = new SQLite(file);
  db.prepare(
    `insert into catalogues (id, name, created_at, updated_at)
      values ('other', 'o', 0, 0), ('mine', 'm', 0, 0)`,
  ).run();
  const insert = db.prepare(`insert into products (id, catalogue_id, name, name_key,
      description, search_key, price_cents, stock, created_at, updated_at)
    values (?, 'other', ?, ?, ?, ?, 100, 5, 0, 0)`);
  db.transaction(() => {
    for (let i = 0; i < others; i += 1) {
      const name = `item ${i}`;
      const description = ordinary(i);
      insert.run(`o-${i}`, name, name, description, `${name}\n${description}`);
    }
  })();
  db.close();
  return file;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;
const ms = (value: number) => value.toFixed(1);

/** Texts searched: common, less common, rare, two words, the writer's own, absent. */
const SEARCHES = ['lamp', 'brass 4', 'item 9999', 'steel oak', 'mine 1', 'zzq'];

async function run(others: number, kind: string, writes: number, variant: string) {
  const { settings, mergePages } = VARIANTS[variant]!;
  const file = path.join(work, 'run.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  copyFileSync(await baseFile(others), file);
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  for (const statement of settings) db.exec(statement);
  const insert = db.prepare(`insert into products (id, catalogue_id, name, name_key,
      description, search_key, price_cents, stock, created_at, updated_at)
    values (?, 'mine', ?, ?, ?, ?, 100, 5, 0, 0)`);
  const statements = ['begin immediate', 'savepoint flush', 'release flush', 'commit'].map((s) =>
    db.prepare(s),
  );
  const [begin, savepoint, release, commit] = statements as [
    SQLite.Statement,
    SQLite.Statement,
    SQLite.Statement,
    SQLite.Statement,
  ];
  const merge = db.prepare(`insert into product_search(product_search, rank) values ('merge', ?)`);
  const changes = db.prepare('select total_changes()').pluck();
  const perWrite: number[] = [];
  const steps: number[] = [];
  for (let i = 0; i < writes; i += 1) {
    const description = kind === 'random' ? randomText() : ordinary(i + 12_345);
    const name = `mine ${i}`;
    // The longest statement of the write: the insert, the flush (savepoint), the commit.
    let longest = 0;
    const timed = (statement: () => unknown) => {
      const started = cpuMs();
      statement();
      longest = Math.max(longest, cpuMs() - started);
    };
    timed(() => begin.run());
    timed(() => insert.run(`m-${i}`, name, name, description, `${name}\n${description}`));
    timed(() => savepoint.run());
    timed(() => release.run());
    timed(() => commit.run());
    perWrite.push(longest);
    if (mergePages !== undefined && i % 10 === 9) {
      for (;;) {
        const started = cpuMs();
        const before = changes.get() as number;
        db.transaction(() => merge.run(mergePages))();
        const merged = (changes.get() as number) - before >= 2;
        steps.push(cpuMs() - started);
        if (!merged) break;
      }
    }
  }
  const { segments } = db
    .prepare('select count(distinct segid) as segments from product_search_idx')
    .get() as { segments: number };
  const { pages } = db.prepare('select count(*) as pages from product_search_data').get() as {
    pages: number;
  };
  // The app's first search statement (queries.ts candidatesQuery), median of 101 runs.
  const candidates = db.prepare(`select rowid from product_search where product_search match ?
    limit 1001`);
  const searches = SEARCHES.map((text) => {
    const query = trigramQuery(text)!;
    const times: number[] = [];
    for (let k = 0; k < 101; k += 1) {
      const started = cpuMs();
      candidates.all(query);
      times.push(cpuMs() - started);
    }
    return `${text}: ${percentile(times, 0.5).toFixed(2)}`;
  });
  db.close();
  const stepCells = steps.length
    ? `${ms(percentile(steps, 0.5))} / ${ms(percentile(steps, 0.99))} / ${ms(Math.max(...steps))} (${steps.length})`
    : '-';
  console.log(
    `| ${others.toLocaleString('en')} | ${kind} | ${variant} | ${ms(percentile(perWrite, 0.5))} | ` +
      `${ms(percentile(perWrite, 0.99))} | ${ms(Math.max(...perWrite))} | ${stepCells} | ` +
      `${segments} / ${pages} | ${searches.join(', ')} |`,
  );
}

console.log(
  '| others | written | variant | write p50 | p99 | max | merge step p50 / p99 / max (steps) |' +
    ' segments / pages | search (ms) |',
);
console.log('|---:|---|---|---:|---:|---:|---|---|---|');
const [others, kind, writes, variant] = process.argv.slice(2);
if (others) {
  await run(Number(others), kind ?? 'random', Number(writes ?? 1000), variant ?? 'steps-50');
} else {
  for (const size of [1_000, 100_000]) {
    for (const written of ['ordinary', 'random']) {
      for (const name of ['automerge', 'steps-50']) await run(size, written, 1000, name);
    }
  }
  for (const name of ['automerge-pgsz1000', 'no-merging', 'steps-25', 'steps-100']) {
    await run(100_000, 'random', 1000, name);
  }
}
rmSync(work, { recursive: true, force: true });
