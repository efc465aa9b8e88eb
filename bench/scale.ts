/**
 * `npm run bench:scale`: what a request costs as a catalogue grows, and beside another tenant's
 * large catalogue. For each engine (BENCH_SCALE_ENGINES, default `sqlite,postgres`) and each size
 * (BENCH_SCALE_SIZES, default 1,000, 10,000 and 100,000 products), a fresh database holds one
 * catalogue of that size with about 100,000 stock movements over the last 400 days, its stock in 3
 * of 10,000 places per product (bench/scale-locations.ts); the production
 * build (`npm run build` first) serves it, and every request is sent one at a time and costed by
 * the server's own CPU time once it is idle (bench/scale-requests.ts). Beside the largest
 * catalogue, a catalogue of the smallest size is measured again (`npm run bench:scale-beside`
 * compares the two in alternating rounds). Then the export, a count of 10,000 lines over the whole
 * catalogue (bench/scale-counts.ts), the catalogue's reorder point raised past every stock and
 * set back beside another user's stock changes (bench/scale-point-change.ts), and the imports of
 * the catalogue, the new import beside another user's stock changes (BENCH_SCALE_IMPORTS=off
 * leaves them out; BENCH_SCALE_ONLY=imports runs them alone, without the requests, the export,
 * the count and the point change).
 * Writes bench/results-scale.md, or bench/results-scale-<sizes>.md for other sizes.
 */
import { existsSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/infra/db/open.js';
import { measureExport, measureImports, measureRequests } from './scale-catalogue.js';
import { measureWideCount } from './scale-counts.js';
import { measurePointChange } from './scale-point-change.js';
import { cpuReader } from './scale-cpu.js';
import { freshDatabase, seedCatalogue } from './scale-seed.js';
import { renderScale, type EngineResult } from './scale-table.js';
import { seedUser } from './seed.js';
import { BUILT_SERVER, START_ARGS, launch, stopProcess } from './startup.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);
const ENGINES = (process.env.BENCH_SCALE_ENGINES ?? 'sqlite,postgres').split(',');
const IMPORTS = process.env.BENCH_SCALE_IMPORTS !== 'off';
const ONLY_IMPORTS = process.env.BENCH_SCALE_ONLY === 'imports';

/** Another user, with a catalogue of their own: who changes a stock while an import runs. */
async function seedBystander(env: NodeJS.ProcessEnv) {
  const database = await openDatabase(loadConfig(env));
  try {
    return (await seedUser(database.db, 'bystander@bench.test')).token;
  } finally {
    await database.close();
  }
}

async function measureEngine(engine: string): Promise<EngineResult> {
  const result: EngineResult = { engine, sizes: [], beside: undefined };
  for (const size of SIZES) {
    const database = await freshDatabase(engine);
    try {
      console.log(`${engine}, ${size.toLocaleString('en-US')} products: seeding…`);
      const { user, seconds } = await seedCatalogue(database.env, 'scale@bench.test', size);
      const server = await launch([...START_ARGS], database.env);
      try {
        const postgresUrl = 'postgresUrl' in database.raw ? database.raw.postgresUrl : undefined;
        const cpu = await cpuReader(server.child.pid!, postgresUrl);
        const client = { url: server.url, cpu, token: user.token };
        const costs = ONLY_IMPORTS ? new Map() : await measureRequests(client);
        const exported = ONLY_IMPORTS
          ? undefined
          : await measureExport(client, user.id, database.raw);
        const wideCount = ONLY_IMPORTS ? undefined : await measureWideCount(client);
        const largest = size === Math.max(...SIZES);
        if (largest && SIZES.length > 1 && !ONLY_IMPORTS) {
          // Another tenant's small catalogue, beside this large one.
          const small = Math.min(...SIZES);
          console.log(`${engine}, ${small} products beside ${size}: seeding…`);
          const other = await seedCatalogue(database.env, 'beside@bench.test', small);
          const beside = { ...client, token: other.user.token };
          result.beside = { size: small, costs: await measureRequests(beside) };
        }
        const { sqliteFile } = database;
        const disk = sqliteFile ? await databaseBytes(sqliteFile) : 0;
        const bystander = { ...client, token: await seedBystander(database.env) };
        const pointChange = ONLY_IMPORTS
          ? undefined
          : await measurePointChange(client, bystander, user.id);
        const imports = IMPORTS ? await measureImports(client, bystander) : undefined;
        result.sizes.push({
          size,
          seedSeconds: seconds,
          costs,
          exported,
          wideCount,
          pointChange,
          imports,
          disk,
        });
        await cpu.close();
      } finally {
        await stopProcess(server.child);
      }
    } finally {
      await database.drop();
    }
  }
  return result;
}

/** The SQLite database's bytes on disk, its write-ahead log included. */
async function databaseBytes(file: string) {
  let bytes = 0;
  for (const suffix of ['', '-wal'])
    bytes += (await stat(file + suffix).catch(() => null))?.size ?? 0;
  return bytes;
}

async function main() {
  if (!existsSync(BUILT_SERVER)) throw new Error('no production build: run `npm run build` first');
  const started = Date.now();
  const loadBefore = os.loadavg().map((load) => load.toFixed(1));
  const results: EngineResult[] = [];
  for (const engine of ENGINES) results.push(await measureEngine(engine));
  const report = renderScale(results, {
    seconds: (Date.now() - started) / 1000,
    loadBefore: loadBefore.join(', '),
    loadAfter: os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(', '),
    imports: IMPORTS,
  });
  console.log(`\n${report}`);
  const name =
    process.env.BENCH_SCALE_SIZES || process.env.BENCH_SCALE_ENGINES
      ? `results-scale-${[...ENGINES, ...SIZES].join('-')}.md`
      : 'results-scale.md';
  await writeFile(path.join(here, name), report);
  console.log(`written to bench/${name}`);
}

await main();
