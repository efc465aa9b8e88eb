import { defineConfig } from 'vitest/config';
import { alias, jsx, reactToPreact } from './vite.config.js';

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
        // Preact in place of React, as in the app (vite.config.ts).
        esbuild: jsx,
        resolve: {
          alias: [
            ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
            ...reactToPreact,
          ],
          // The ES module builds, as in the app: Testing Library's CommonJS one would `require`
          // React DOM past the aliases.
          mainFields: ['module', 'main'],
          conditions: ['module', 'browser', 'development|production'],
        },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['tests/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/client/setup.ts'],
          // Node would load these libraries itself, and with them React: run them through Vite, so
          // that their `react` imports meet the aliases above.
          server: {
            deps: {
              inline: [
                /@testing-library\/react/,
                /react-router/,
                /@tanstack\/react-query/,
                /react-hook-form/,
                /@hookform\/resolvers/,
                /react-toastify/,
              ],
            },
          },
        },
      },
    ],
  },
});
