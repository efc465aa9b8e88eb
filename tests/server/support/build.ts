import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, inject } from 'vitest';
import { buildApp, type App, type AppOptions } from '../../../src/server/app.js';
import { withAppSecret } from '../../../src/server/app-secret.js';
import { loadConfig, type Config } from '../../../src/server/config.js';
import { settings } from '../../../src/server/decorators.js';
import { defaultRateLimits } from '../../../src/server/http/rate-limits.js';
import { databasePlugin } from '../../../src/server/infra/db/plugin.js';
import { openDatabase } from '../../../src/server/infra/db/open.js';
import type { DatabaseHandle } from '../../../src/server/infra/db/handle.js';
import { ManualClock } from '../../../src/server/lib/clock.js';
import { watchResponses } from './openapi-responses.js';
import { databaseUrl, SQLITE_FILE } from './database-template.js';
import { atFileEnd } from './file-end.js';

export interface TestServer {
  app: App;
  config: Config;
  database: DatabaseHandle;
  clock: ManualClock;
  dataDir: string;
  /**
   * Answers of API operations since the last call that the OpenAPI document does not describe
   * (status, media type, headers or body), one line each. Each test fails on any (afterEach); a
   * test that provokes one on purpose takes them.
   */
  takeUndocumentedAnswers(): string[];
  close(): Promise<void>;
}

/**
 * A fresh PostgreSQL database on the server of TEST_DATABASE_URL, dropped afterwards, so test files
 * never see each other's rows: empty, or a copy of `template`.
 */
export async function freshPostgresDatabase(baseUrl: string, template?: string) {
  const name = `stockroom_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  return {
    url: databaseUrl(baseUrl, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface BuildOptions extends Partial<Omit<AppOptions, 'config' | 'database' | 'clock'>> {
  env?: Record<string, string>;
  /** Keep the server open after the file's tests (the caller closes it). */
  manualClose?: boolean;
  /** Runs on the built app before it is ready: hooks of a test's own (they run before the check). */
  beforeReady?: (app: App) => void;
}

/** A temp DATA_DIR (and on PostgreSQL a fresh database), a migrated copy, a manual clock. */
async function testDatabase(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-test-'));
  const postgres = process.env.TEST_DATABASE_URL
    ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL, inject('postgresTemplate'))
    : undefined;
  const config = withAppSecret(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      APP_SECRET: 'test-secret-that-is-at-least-32-characters-long',
      PUBLIC_URL: 'http://stockroom.test',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      ...env,
    }),
  );
  const sqliteTemplate = inject('sqliteTemplate');
  if (!config.databaseUrl && sqliteTemplate) {
    await copyFile(sqliteTemplate, path.join(config.dataDir, SQLITE_FILE));
  }
  const database = await openDatabase(config);
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const remove = async () => {
    await database.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { config, database, clock, dataDir, remove };
}

/**
 * The `build()` helper: a real server on a temp DATA_DIR (SQLite) or a fresh PostgreSQL database
 * when TEST_DATABASE_URL is set, either one a copy of the run's migrated database
 * (database-template.ts), with a manual clock and loose rate limits unless told otherwise. Its
 * background work does not run unless `background: true` (tests drain queues themselves).
 */
export async function build(options: BuildOptions = {}): Promise<TestServer> {
  const { config, database, clock, dataDir, remove } = await testDatabase(options.env);
  const { env: _env, manualClose, beforeReady, ...appOptions } = options;
  const app = await buildApp({
    config,
    database,
    clock,
    clientDir: path.join(dataDir, 'no-client'),
    ...appOptions,
    rateLimits: { sensitive: 10_000, general: 10_000, ...appOptions.rateLimits },
  });
  beforeReady?.(app);
  const answers = watchResponses(app);
  await app.ready();
  await answers.start();
  const close = async () => {
    await app.close();
    await remove();
    failOnUndocumented(answers.take());
  };
  const server: TestServer = {
    app,
    config,
    database,
    clock,
    dataDir,
    takeUndocumentedAnswers: answers.take,
    close: manualClose ? close : closedAfterFile(close),
  };
  // After each test, not only at the end: the failure names the test that got the answer.
  if (!manualClose) afterEach(() => failOnUndocumented(answers.take()));
  return server;
}

/**
 * `close` run once the file's tests are done, as an afterAll; and at the file's end in any case,
 * as Vitest runs no hook that a hook or a test registers: a server built in a beforeAll would
 * stay open, its database and DATA_DIR left behind. Whichever comes first closes; the returned
 * function closes at once, and only once.
 */
function closedAfterFile(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const once = () => (closing ??= close());
  afterAll(once);
  atFileEnd(async () => {
    if (!closing) await once();
  });
  return once;
}

/**
 * A bare Fastify app with only what a part under test depends on: the settings and the database
 * plugins (on a test database, as build() makes), then what `register` adds. Closed after the
 * file's tests.
 */
export async function buildPlugins(register: (app: FastifyInstance) => Promise<void>) {
  const { config, database, clock, dataDir, remove } = await testDatabase();
  const app = Fastify({ logger: { level: 'silent' } });
  await app.register(settings, { config, clock, rateLimits: defaultRateLimits });
  await app.register(databasePlugin, { database });
  await register(app);
  await app.ready();
  closedAfterFile(async () => {
    await app.close();
    await remove();
  });
  return { app, config, database, clock, dataDir };
}

/**
 * Another instance of `server`'s app: a second app on the same database (its own connection),
 * clock and DATA_DIR, answers checked against the document; closed after the file's tests.
 */
export async function anotherInstance(
  server: TestServer,
  options: Partial<Omit<AppOptions, 'database'>> = {},
): Promise<App> {
  const config = options.config ?? server.config;
  const database = await openDatabase(config);
  const app = await checkAnswersOf(
    await buildApp({
      clock: server.clock,
      clientDir: path.join(server.dataDir, 'no-client'),
      ...options,
      config,
      database,
    }),
  );
  closedAfterFile(async () => {
    await app.close();
    await database.close();
  });
  return app;
}

/**
 * Readies an app a test built itself (another instance on the same database), its answers checked
 * against the document as a build() server's are: the returned function takes the problems found.
 */
export async function watchAnswersOf(app: App): Promise<() => string[]> {
  const answers = watchResponses(app);
  await app.ready();
  await answers.start();
  return answers.take;
}

/** The same, failing each test that got an undocumented answer. Call it where build() goes. */
export async function checkAnswersOf(app: App): Promise<App> {
  const take = await watchAnswersOf(app);
  afterEach(() => failOnUndocumented(take()));
  return app;
}

/** Fails the test when an answer did not match the OpenAPI document (support/openapi-responses). */
export function failOnUndocumented(problems: string[]) {
  if (problems.length > 0) {
    throw new Error(`Answers that do not match the OpenAPI document:\n${problems.join('\n')}`);
  }
}
