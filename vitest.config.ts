import { defineConfig } from 'vitest/config';
import { alias } from './vite.config.js';

/**
 * Tests that do not depend on the database engine and must run one at a time: slow ones, and ones
 * that start server processes or bound a latency (as `server-alone`'s do). CI runs the server
 * projects on SQLite and again on PostgreSQL, and these once (`npm test`, the `slow` project).
 */
const SLOW = [
  'tests/scripts/ensure-chromium.test.ts',
  // HTTP's time limits, waited out on real sockets: the engine plays no part.
  'tests/server/http/timeouts.test.ts',
  // Builds and starts the server three times.
  'tests/scripts/build-server.test.ts',
  'tests/server/http/secret.test.ts',
  // Latency bounds of what no database takes part in: decoding images, and a stalled Redis, where
  // the rate limits count.
  'tests/server/infra/images/pipeline.test.ts',
  'tests/server/http/redis-stall.test.ts',
  // A server process's memory while it reads hostile CSV files as dry runs.
  'tests/server/catalogue-ops/import-memory.test.ts',
];

/**
 * The reports of a catalogue seeded with 200,000 stock movements, once on SQLite: the heaviest
 * file of all (two minutes at load 10), bound by nothing but its CPU. One at a time after the
 * pool it held a core while the other idled; its project, named to sort before `server` (Vitest
 * starts a group's projects in the order of their names), starts it first beside the server files.
 */
const LARGE = ['tests/server/reports/large-catalogue.test.ts'];

/**
 * Server, shared and script test files whose result does not depend on the database engine: pure
 * code, and apps built for their HTTP layer only (headers, logs, limits kept in memory or Redis,
 * answers checked against the OpenAPI document), whose rows are incidental (a user signed in to
 * have a token) and go through code that the other files test on both engines. `npm test` runs
 * them once, on SQLite (the `server-once` project); `npm run test:server` leaves them out, so
 * CI's PostgreSQL pass does not run them again. A file that exercises SQL on purpose (a query, a
 * migration, a transaction, the cache of database changes) belongs to `server` instead.
 */
const ONCE = [
  'tests/shared/**/*.test.ts',
  'tests/scripts/**/*.test.ts',
  // Pure code: configuration, rules, rendering, storage, transports, test helpers.
  'tests/server/config.test.ts',
  'tests/server/config-secret.test.ts',
  'tests/server/ready-line.test.ts',
  'tests/server/scan-decoder-version.test.ts',
  'tests/server/start-command.test.ts',
  'tests/server/accounts/mail-budget.test.ts',
  'tests/server/infra/backup-under-writes.test.ts',
  'tests/server/accounts/passwords.test.ts',
  'tests/server/catalogue-ops/label-fonts.test.ts',
  'tests/server/catalogue-ops/utf8-check.test.ts',
  'tests/server/http/compression-build.test.ts',
  'tests/server/infra/images/storage.test.ts',
  'tests/server/infra/images/s3-storage.test.ts',
  'tests/server/infra/mail/smtp-transport.test.ts',
  'tests/server/infra/mail/templates.test.ts',
  'tests/server/support/latency.test.ts',
  'tests/server/support/mann-whitney.test.ts',
  // The HTTP layer of a built app.
  'tests/server/http/built-pages.test.ts',
  'tests/server/http/compression.test.ts',
  'tests/server/http/cors.test.ts',
  'tests/server/http/dev-log.test.ts',
  'tests/server/http/headers.test.ts',
  'tests/server/http/headers-on-every-answer.test.ts',
  'tests/server/http/logging.test.ts',
  'tests/server/http/openapi-responses.test.ts',
  'tests/server/http/plugin-names.test.ts',
  'tests/server/http/protected-by-default.test.ts',
  'tests/server/http/rate-limit-redis.test.ts',
  'tests/server/http/request-loggers.test.ts',
  'tests/server/http/trust-proxy.test.ts',
  'tests/server/accounts/auth/rate-limit.test.ts',
  'tests/server/accounts/profile/spec-client.test.ts',
  'tests/server/catalogue-ops/catalogue-rate-limit.test.ts',
  'tests/server/catalogue-ops/label-scripts.test.ts',
  'tests/server/dev-mailbox/dev-mailbox.test.ts',
];

/**
 * Server test files that replace a module (vi.mock) or set NODE_ENV for the whole file, which
 * would leak into any file sharing their modules: one at a time, each with modules of its own.
 */
const OWN_MODULES = ['codes-unique', 'response-schema-guard', 'timing'];

/**
 * Server test files that start server processes or bound a latency, which another file running
 * beside them would slow past their limits: one at a time, after the others. By name, wherever
 * the file sits.
 */
const ALONE = [
  // Server processes.
  'entry',
  'lazy-modules',
  'mail-budget',
  'migrations-concurrent',
  'outage',
  'shutdown',
  'sqlite-processes',
  'import-kill',
  // Latency bounds.
  'change-notifications',
  'import-stall',
  'import-writers',
  'reimport-writers',
  'import-event-loop',
  'costly-work',
  'search-stall',
  'live-events',
  'fair-delivery',
];

const serverFiles = (names: string[]) => names.map((name) => `tests/server/**/${name}.test.ts`);

/** After the server project's two workers: one file at a time. */
const ONE_AT_A_TIME = { maxWorkers: 1, sequence: { groupOrder: 1 } };

/** What every server test file runs first: the clean-up of what it leaves behind. */
const serverSetup = ['tests/server/support/setup.ts'];

/**
 * Once per server project's run: the migrated database build() copies, on either engine, and the
 * server entry's bundle that the tests starting server processes run.
 */
const serverGlobalSetup = [
  'tests/server/support/database-template.ts',
  'tests/server/support/entry-bundle.ts',
];

/** How the `server` and `server-once` projects run their files. */
const TWO_SHARING_MODULES = {
  environment: 'node',
  setupFiles: serverSetup,
  globalSetup: serverGlobalSetup,
  // Each file gets its own server and temp DATA_DIR, but the files of a worker share the modules
  // they import: loading the app afresh for each file cost more CPU than most of their tests.
  pool: 'forks',
  isolate: false,
  // Vitest's default on two cores is one worker, yet many of these files mostly wait (on sockets,
  // the disk, PostgreSQL): a second one fills that time. The projects of the next group run one
  // file at a time once these are done.
  maxWorkers: 2,
  testTimeout: 30_000,
  hookTimeout: 30_000,
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: [...SLOW, ...LARGE, ...ONCE, ...serverFiles([...OWN_MODULES, ...ALONE])],
          ...TWO_SHARING_MODULES,
        },
      },
      {
        test: {
          // As `server-once`, in the same pool of workers.
          name: 'large-catalogue',
          include: LARGE,
          ...TWO_SHARING_MODULES,
        },
      },
      {
        test: {
          // As `server`, and in the same pool of workers (the same group), but not part of the
          // server suite: `npm test` runs it, `npm run test:server` does not.
          name: 'server-once',
          include: ONCE,
          exclude: SLOW,
          ...TWO_SHARING_MODULES,
        },
      },
      {
        test: {
          // Part of the server suite (`npm run test:server` runs both), after the rest.
          name: 'server-alone',
          environment: 'node',
          include: serverFiles(ALONE),
          // By name: the rule of the accounts' mail budget shares its name with the processes'.
          exclude: ONCE,
          setupFiles: serverSetup,
          globalSetup: serverGlobalSetup,
          pool: 'forks',
          // One file at a time, but sharing the modules they import, as the server project does.
          isolate: false,
          ...ONE_AT_A_TIME,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          // Part of the server suite too, one file at a time, each with modules of its own.
          name: 'server-own-modules',
          environment: 'node',
          include: serverFiles(OWN_MODULES),
          exclude: ONCE,
          setupFiles: serverSetup,
          globalSetup: serverGlobalSetup,
          pool: 'forks',
          ...ONE_AT_A_TIME,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'slow',
          environment: 'node',
          include: SLOW,
          setupFiles: serverSetup,
          globalSetup: serverGlobalSetup,
          pool: 'forks',
          ...ONE_AT_A_TIME,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          // Real server processes behind a proxy (`npm run test:cluster`): PostgreSQL and Redis
          // must be running, so `npm test` (server and client projects only) leaves it out.
          name: 'cluster',
          environment: 'node',
          include: ['tests/cluster/**/*.test.ts'],
          pool: 'forks',
          ...ONE_AT_A_TIME,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // JSX through React's automatic runtime, as React Router's plugin compiles it in the app.
        esbuild: { jsx: 'automatic' },
        resolve: {
          alias: Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
        },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['tests/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/client/setup.ts'],
          // A worker thread per file rather than a process: starting a process and its jsdom for
          // each file took half the project's time.
          pool: 'threads',
          // Two files at a time, after the server projects (a group of its own: Vitest runs the
          // projects of a group in one pool of workers). Testing Library's waits are longer than
          // its 1 s default (setup.ts), which a render beside another file could pass.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
