import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.js';
import { START_FLAGS } from '../../scripts/start-command.js';
import { freePort } from '../support/ports.js';
import { tempDir } from '../server/support/temp-dirs.js';

// Inside the checkout: the bundle loads its external packages from node_modules.
const outdir = path.resolve('node_modules/.cache/stockroom/build-server-test/server');

/** Starts the built entry with `flags`, waits for its health answer, stops it; its stderr. */
async function startOnce(flags: string[]): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [...flags, path.join(outdir, 'index.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_SECRET: 'a-secret-of-this-test-only-of-32-characters',
      DATA_DIR: await tempDir('stockroom-build-'),
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/api/health`).then(
            (r) => r.status,
            () => 0,
          ),
        {
          timeout: 20_000,
          interval: 20,
        },
      )
      .toBe(200);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return stderr;
}

/**
 * The server build: one bundle and the V8 code cache it is compiled with, made for `npm start`'s
 * flags. Under other flags V8 refuses the cache, and the server says so and starts without it.
 */
describe('the server build', { timeout: 120_000 }, () => {
  afterAll(() => rm(path.dirname(outdir), { recursive: true, force: true }));

  it('writes a code cache that a start with npm start’s flags takes, and others refuse', async () => {
    await buildServer(outdir);
    expect(await startOnce(START_FLAGS)).toBe('');
    expect(await startOnce([])).toMatch(/server\.cjs\.cache was made for another Node version/);
  });
});
