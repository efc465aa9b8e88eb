import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withAppSecret } from '../../src/server/app-secret.js';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { tempDir } from './support/temp-dirs.js';

const SECRET = 's'.repeat(32);

/** The secret start-up settles on for these variables. */
const secretFor = (env: Record<string, string>) => withAppSecret(loadConfig(env)).appSecret;

describe('the app secret', () => {
  it('NODE_ENV=production requires APP_SECRET and generates none', async () => {
    const dataDir = await tempDir('stockroom-config-');
    let problems: string[] = [];
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([expect.stringMatching(/^APP_SECRET .*production/)]);
    expect(existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: SECRET }).env).toBe('production');
  });

  it('without APP_SECRET, generates one into DATA_DIR once and reuses it', async () => {
    const dataDir = await tempDir('stockroom-config-');
    const first = secretFor({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secret.key');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(secretFor({ DATA_DIR: dataDir })).toBe(first);
    expect(secretFor({ DATA_DIR: await tempDir('stockroom-config-') })).not.toBe(first);
  });

  it.each([
    ['empty', ''],
    ['blank', '  \n'],
    ['short', 'x'.repeat(31)],
  ])(
    'refuses a %s secret file with one line, and leaves the file alone',
    async (_kind, content) => {
      const dataDir = await tempDir('stockroom-config-');
      const file = path.join(dataDir, 'secret.key');
      await writeFile(file, content);
      let problems: string[] = [];
      try {
        secretFor({ DATA_DIR: dataDir });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        problems = (error as ConfigError).problems;
      }
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^APP_SECRET .*secret\.key.* 32 characters/);
      expect(await readFile(file, 'utf8')).toBe(content);
      // A secret file of the right length is taken as it is.
      await writeFile(file, `${'y'.repeat(32)}\n`);
      expect(secretFor({ DATA_DIR: dataDir })).toBe('y'.repeat(32));
    },
  );

  it('refuses to start on PostgreSQL in production without APP_SECRET', async () => {
    const dataDir = await tempDir('stockroom-config-');
    let problems: string[] = [];
    try {
      loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://stockroom@db.example.com/stock',
      });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([expect.stringMatching(/^APP_SECRET .*production/)]);
    expect(existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
  });
});
