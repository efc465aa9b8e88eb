import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/server/accounts/sessions.js';
import { insertUser } from '../../src/server/accounts/users.js';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/open.js';
import { systemClock } from '../../src/server/lib/clock.js';
import { ORPHAN_GRACE_MS } from '../../src/server/products/orphan-images.js';
import { TestS3Server } from '../support/s3.js';
import { build, freshPostgresDatabase } from './support/build.js';
import { jpeg } from './support/images.js';
import { freePort, startEntry, waitForOk, type Entry } from './support/processes.js';
import { validFields } from './support/products.js';

const tempDirs: string[] = [];
async function tempDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'stockroom-config-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const SECRET = 's'.repeat(32);

/** The problems loadConfig reports for these variables (fails the test if it does not throw). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ APP_SECRET: SECRET, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the documented defaults', async () => {
    const dataDir = await tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      mailFrom: 'Stockroom <no-reply@localhost>',
      corsOrigins: [],
      trustProxy: false,
      apiDocs: true,
    });
  });

  it('DATA_DIR defaults to ./data', () => {
    expect(loadConfig({ APP_SECRET: SECRET }).dataDir).toBe(path.resolve('data'));
  });

  it('PUBLIC_URL follows PORT, and loses a trailing slash when given', () => {
    expect(loadConfig({ APP_SECRET: SECRET, PORT: '8080' }).publicUrl).toBe(
      'http://localhost:8080',
    );
    expect(
      loadConfig({ APP_SECRET: SECRET, PUBLIC_URL: 'https://shop.example.com/' }),
    ).toMatchObject({ publicUrl: 'https://shop.example.com' });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      APP_SECRET: SECRET,
      PORT: '4000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/stock',
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      MAIL_FROM: 'Shop <shop@example.com>',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com/',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db:5432/stock',
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      mailFrom: 'Shop <shop@example.com>',
      appSecret: SECRET,
      corsOrigins: ['https://a.example.com', 'https://b.example.com'],
      trustProxy: 1,
    });
  });

  it.each([
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['true', 1],
    ['True', 1],
    ['1', 1],
    ['3', 3],
    ['10.0.0.1', ['10.0.0.1']],
    [' 10.0.0.0/8 , 192.168.1.1,::1 ', ['10.0.0.0/8', '192.168.1.1', '::1']],
    ['fd00::/8,loopback', ['fd00::/8', 'loopback']],
  ])('TRUST_PROXY=%s trusts %j', (raw, expected) => {
    expect(loadConfig({ APP_SECRET: SECRET, TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it('API_DOCS: always on outside production, off in production unless true', () => {
    const docs = (env: Record<string, string>) =>
      loadConfig({ APP_SECRET: SECRET, ...env }).apiDocs;
    expect(docs({})).toBe(true);
    expect(docs({ NODE_ENV: 'test' })).toBe(true);
    expect(docs({ API_DOCS: 'false' })).toBe(true);
    expect(docs({ NODE_ENV: 'production' })).toBe(false);
    expect(docs({ NODE_ENV: 'production', API_DOCS: 'false' })).toBe(false);
    expect(docs({ NODE_ENV: 'production', API_DOCS: 'true' })).toBe(true);
    expect(docs({ NODE_ENV: 'production', API_DOCS: 'TRUE' })).toBe(true);
  });

  it.each([
    ['PORT', '99999'],
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://root:hunter2@db/stock'],
    ['DATABASE_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['PUBLIC_URL', 'example.com'],
    ['SMTP_URL', 'http://user:hunter2@mail.example.com'],
    ['SMTP_URL', '::'],
    ['CORS_ORIGINS', 'https://a.example.com/path'],
    ['MAIL_FROM', 'nobody'],
    ['APP_SECRET', 'short'],
    ['RATE_LIMIT_SENSITIVE', '0'],
    ['RATE_LIMIT_GENERAL', 'many'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '-1'],
    ['TRUST_PROXY', '1.5'],
    ['TRUST_PROXY', '300.1.1.1'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.0/'],
    ['TRUST_PROXY', 'fd00::/129'],
    ['TRUST_PROXY', '10.0.0.1,proxy.example.com'],
    ['TRUST_PROXY', '*'],
    ['API_DOCS', 'yes'],
    ['API_DOCS', '1'],
  ])('%s=%s: one line naming the variable', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name} `));
    expect(problems[0]).not.toContain('\n');
    // URLs may carry passwords: a problem line never repeats them.
    expect(problems[0]).not.toContain('hunter2');
  });

  it('names every bad variable at once, one line each', () => {
    const problems = problemsOf({ PORT: '70000', PUBLIC_URL: 'nope', SMTP_URL: 'nope' });
    expect(problems.map((line) => line.split(' ')[0])).toEqual(['PORT', 'PUBLIC_URL', 'SMTP_URL']);
  });

  it('NODE_ENV=production requires APP_SECRET and generates none', async () => {
    const dataDir = await tempDir();
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
    const dataDir = await tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).appSecret;
    const file = path.join(dataDir, 'secret.key');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).appSecret).toBe(first);
    expect(loadConfig({ DATA_DIR: await tempDir() }).appSecret).not.toBe(first);
  });

  it.each([
    ['empty', ''],
    ['blank', '  \n'],
    ['short', 'x'.repeat(31)],
  ])(
    'refuses a %s secret file with one line, and leaves the file alone',
    async (_kind, content) => {
      const dataDir = await tempDir();
      const file = path.join(dataDir, 'secret.key');
      await writeFile(file, content);
      let problems: string[] = [];
      try {
        loadConfig({ DATA_DIR: dataDir });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        problems = (error as ConfigError).problems;
      }
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^APP_SECRET .*secret\.key.* 32 characters/);
      expect(await readFile(file, 'utf8')).toBe(content);
      // A secret file of the right length is taken as it is.
      await writeFile(file, `${'y'.repeat(32)}\n`);
      expect(loadConfig({ DATA_DIR: dataDir }).appSecret).toBe('y'.repeat(32));
    },
  );

  it('refuses to start on PostgreSQL in production without APP_SECRET', async () => {
    const dataDir = await tempDir();
    let problems: string[] = [];
    try {
      loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://db.example.com/stock',
      });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([expect.stringMatching(/^APP_SECRET .*production/)]);
    expect(existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
  });
});

describe('S3 image storage settings', () => {
  const BUCKET = { S3_BUCKET: 'stockroom-images' };

  it('is off without S3_BUCKET', () => {
    expect(loadConfig({ APP_SECRET: SECRET }).s3).toBeUndefined();
  });

  it('with only S3_BUCKET: AWS, us-east-1, virtual-hosted style, credentials from the SDK', () => {
    expect(loadConfig({ APP_SECRET: SECRET, ...BUCKET }).s3).toEqual({
      bucket: 'stockroom-images',
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it('reads every S3 variable; path style is the default with an endpoint', () => {
    expect(
      loadConfig({
        APP_SECRET: SECRET,
        S3_BUCKET: 'my.bucket-1',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'eu-west-3',
        S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'secret/key+example',
      }).s3,
    ).toEqual({
      bucket: 'my.bucket-1',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret/key+example',
      forcePathStyle: true,
    });
  });

  it.each([
    [{ S3_ENDPOINT: 'https://s3.example.com' }, true],
    [{ S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'false' }, false],
    [{ S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'FALSE' }, false],
    [{ S3_FORCE_PATH_STYLE: 'true' }, true],
    [{ S3_FORCE_PATH_STYLE: 'false' }, false],
    [{}, false],
  ])('%j: path style %s', (env, expected) => {
    expect(loadConfig({ APP_SECRET: SECRET, ...BUCKET, ...env }).s3?.forcePathStyle).toBe(expected);
  });

  it.each([
    ['S3_BUCKET', { S3_BUCKET: 'Stockroom' }],
    ['S3_BUCKET', { S3_BUCKET: 'ab' }],
    ['S3_BUCKET', { S3_BUCKET: '-stockroom' }],
    ['S3_BUCKET', { S3_BUCKET: 'stockroom-' }],
    ['S3_BUCKET', { S3_BUCKET: 'stock_room' }],
    ['S3_BUCKET', { S3_BUCKET: 'a'.repeat(64) }],
    ['S3_ENDPOINT', { ...BUCKET, S3_ENDPOINT: 'ftp://s3.example.com' }],
    ['S3_ENDPOINT', { ...BUCKET, S3_ENDPOINT: 's3.example.com' }],
    ['S3_ENDPOINT', { ...BUCKET, S3_ENDPOINT: 'https://user:hunter2@:9000' }],
    ['S3_REGION', { ...BUCKET, S3_REGION: 'eu west' }],
    ['S3_FORCE_PATH_STYLE', { ...BUCKET, S3_FORCE_PATH_STYLE: 'yes' }],
    ['S3_SECRET_ACCESS_KEY', { ...BUCKET, S3_ACCESS_KEY_ID: 'hunter2' }],
    ['S3_ACCESS_KEY_ID', { ...BUCKET, S3_SECRET_ACCESS_KEY: 'hunter2' }],
    ['S3_ENDPOINT', { S3_ENDPOINT: 'https://s3.example.com' }],
    ['S3_REGION', { S3_REGION: 'eu-west-3' }],
    ['S3_ACCESS_KEY_ID', { S3_ACCESS_KEY_ID: 'hunter2' }],
    ['S3_FORCE_PATH_STYLE', { S3_FORCE_PATH_STYLE: 'true' }],
    ['S3_BUCKT', { S3_BUCKT: 'stockroom-images' }],
  ])('%s is refused with one line naming it: %j', (name, env) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name} `));
    expect(problems[0]).not.toContain('\n');
    expect(problems[0]).not.toContain('hunter2');
  });

  it('without S3_BUCKET, names each S3 variable that is set, one line each', () => {
    const problems = problemsOf({
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'hunter2',
    });
    expect(problems.map((line) => line.split(' ')[0])).toEqual([
      'S3_ENDPOINT',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
    ]);
    for (const line of problems) expect(line).toContain('S3_BUCKET');
    expect(problems.join('\n')).not.toContain('hunter2');
  });
});

describe('the real server entry with images in S3', { timeout: 60_000 }, () => {
  it('stores an upload in the bucket and serves it back', async () => {
    const s3 = await new TestS3Server().start();
    const dataDir = await tempDir();
    const postgres = process.env.TEST_DATABASE_URL
      ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const entry = startEntry({
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      APP_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.options.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
    });
    try {
      await waitForOk(`${origin}/api/ready`, 45_000, entry);
      // A user and a session written straight into the entry's database.
      const database = await openDatabase({ dataDir, databaseUrl: postgres?.url });
      let token: string;
      try {
        const userId = await insertUser(
          database.db,
          { name: 'S3 User', email: 's3@example.com', passwordHash: 'unused' },
          Date.now(),
        );
        token = await createSession(database.db, systemClock, userId);
      } finally {
        await database.close();
      }

      const form = new FormData();
      for (const [name, value] of Object.entries(validFields)) form.append(name, value);
      form.append(
        'image',
        new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }),
        'photo.jpg',
      );
      const created = await fetch(`${origin}/api/products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(created.status).toBe(201);
      const { product } = (await created.json()) as { product: { image: string } };
      const name = product.image.split('/').at(-1)!;
      expect(product.image).toBe(`${origin}/api/images/${name}`);
      expect(await s3.keys()).toEqual(expect.arrayContaining([`images/${name}`]));
      expect(existsSync(path.join(dataDir, 'images'))).toBe(false);

      const image = await fetch(product.image);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      expect(Buffer.from(await image.arrayBuffer())).toEqual(
        (await s3.object(`images/${name}`)).body,
      );

      entry.child.kill('SIGTERM');
      expect(await entry.exited).toBe(0);
    } finally {
      if (entry.child.exitCode === null) entry.child.kill('SIGKILL');
      await entry.exited;
      await postgres?.drop();
      await s3.stop();
    }
  });
});

// Each test starts Node with tsx: seconds on a busy machine.
describe('the real server entry', { timeout: 60_000 }, () => {
  const running: Entry[] = [];
  afterAll(() => {
    for (const entry of running) if (entry.child.exitCode === null) entry.child.kill('SIGKILL');
  });

  it('refuses a bad PORT with exit code 1 and one line naming PORT', async () => {
    const entry = startEntry({ PORT: '99999', DATA_DIR: await tempDir() });
    running.push(entry);
    expect(await entry.exited).toBe(1);
    const lines = entry.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
    expect(lines[0]).not.toMatch(/\bat\b.*\.ts:\d+/);
  });

  it('starts, answers /api/health, sweeps orphan image files, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = await tempDir();
    // An image file from before a crash, older than the sweep's grace period, in no product.
    const orphan = path.join(dataDir, 'images', 'ab', `${'ab'.repeat(16)}.webp`);
    await mkdir(path.dirname(orphan), { recursive: true });
    await writeFile(orphan, 'orphan');
    const longAgo = new Date(Date.now() - 2 * ORPHAN_GRACE_MS);
    await utimes(orphan, longAgo, longAgo);
    const entry = startEntry({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    });
    running.push(entry);
    await waitForOk(`http://127.0.0.1:${port}/api/health`, 45_000, entry);
    await expect.poll(() => existsSync(orphan), { timeout: 10_000 }).toBe(false);
    entry.child.kill('SIGTERM');
    expect(await entry.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  });
});

describe('CORS_ORIGINS', async () => {
  const allowed = 'https://app.example.com';
  const server = await build({ env: { CORS_ORIGINS: `${allowed},https://other.example.com` } });
  const preflight = (origin: string) =>
    server.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/profile',
      headers: {
        origin,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('a listed origin passes the preflight for Authorization, Content-Type and every method', async () => {
    const res = await preflight(allowed);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
    const methods = String(res.headers['access-control-allow-methods']).split(/,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
    const headers = String(res.headers['access-control-allow-headers']).toLowerCase();
    expect(headers.split(/,\s*/)).toEqual(
      expect.arrayContaining(['authorization', 'content-type']),
    );
  });

  it('a listed origin gets Access-Control-Allow-Origin on the real request too', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: allowed },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
  });

  it('an unlisted origin gets no Access-Control-Allow-Origin', async () => {
    for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.net']) {
      const res = await preflight(origin);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const get = await server.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { origin },
      });
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('a request without Origin (curl, servers) just works', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
