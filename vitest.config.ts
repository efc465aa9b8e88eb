import { defineConfig } from 'vitest/config';
import { alias } from './vite.config.js';

/**
 * Tests that start many processes and do not depend on the database engine: CI runs the server
 * project on SQLite and again on PostgreSQL, and these once (`npm test`, the `slow` project).
 */
const SLOW = ['tests/scripts/ensure-chromium.test.ts', 'tests/server/http/secret.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'tests/server/**/*.test.ts',
            'tests/shared/**/*.test.ts',
            'tests/scripts/**/*.test.ts',
          ],
          exclude: SLOW,
          // Each file gets its own server and temp DATA_DIR; two cores, so keep files sequential-ish.
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'slow',
          environment: 'node',
          include: SLOW,
          pool: 'forks',
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
        },
      },
    ],
  },
});
