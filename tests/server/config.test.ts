import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { tempDir } from './support/temp-dirs.js';

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
    const dataDir = await tempDir('stockroom-config-');
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

  it('writes nothing: without APP_SECRET the secret is left to start-up (config-secret.test.ts)', async () => {
    const dataDir = path.join(await tempDir('stockroom-config-'), 'not-yet');
    expect(loadConfig({ DATA_DIR: dataDir }).appSecret).toBeUndefined();
    expect(existsSync(dataDir)).toBe(false);
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
    ['HOST', '999.1.1.1'],
    ['HOST', '1.2.3'],
    ['HOST', '-bad'],
    ['HOST', 'bad-.example.com'],
    ['HOST', 'two words'],
    ['HOST', 'a..b'],
    ['HOST', 'http://example.com'],
    ['HOST', `${'a'.repeat(64)}.example.com`],
    ['DATABASE_URL', 'mysql://root:hunter2@db/stock'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'postgres://'],
    ['DATABASE_URL', 'postgresql://root:hunter2@/stock'],
    // No user name anywhere pg looks (the URL, PGUSER, USER): the server would refuse it.
    ['DATABASE_URL', 'postgres://db.example.com/stock'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['PUBLIC_URL', 'example.com'],
    ['SMTP_URL', 'http://user:hunter2@mail.example.com'],
    ['SMTP_URL', '::'],
    ['SMTP_URL', 'smtp://'],
    ['SMTP_URL', 'smtps://user:hunter2@'],
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

  it.each([
    'localhost',
    '0.0.0.0',
    '::',
    '::1',
    '192.168.1.20',
    'fe80::1',
    'app.example.com',
    'web_1',
  ])('HOST=%s is taken as it is', (host) => {
    expect(loadConfig({ APP_SECRET: SECRET, HOST: host }).host).toBe(host);
  });

  it.each([
    [{ DATABASE_URL: 'postgres://app@db.example.com/stock' }],
    [{ DATABASE_URL: 'postgres://db.example.com/stock', PGUSER: 'app' }],
    [{ DATABASE_URL: 'postgres://db.example.com/stock', USER: 'app' }],
    [{ DATABASE_URL: 'postgres:///stock?host=/var/run/postgresql&user=app' }],
    [{ DATABASE_URL: 'postgres:///stock', PGHOST: '/var/run/postgresql', PGUSER: 'app' }],
  ])('takes a DATABASE_URL pg can connect with: %j', (env) => {
    expect(loadConfig({ APP_SECRET: SECRET, ...env }).databaseUrl).toBe(env.DATABASE_URL);
  });

  it('names every bad variable at once, one line each', () => {
    const problems = problemsOf({ PORT: '70000', PUBLIC_URL: 'nope', SMTP_URL: 'nope' });
    expect(problems.map((line) => line.split(' ')[0])).toEqual(['PORT', 'PUBLIC_URL', 'SMTP_URL']);
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
