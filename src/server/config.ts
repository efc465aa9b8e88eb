import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  appSecret: string;
  corsOrigins: string[];
  logLevel: string;
  /** Per-IP requests per minute on each endpoint that sends mail or checks a secret. */
  rateLimitSensitive: number | undefined;
  /** Per-IP requests per minute on each other account, profile and product endpoint. */
  rateLimitGeneral: number | undefined;
  /**
   * Which reverse proxies to believe about the client's address (X-Forwarded-For, which the rate
   * limits key on) and protocol: none, the nearest N hops, or those addresses and ranges.
   */
  trustProxy: false | number | string[];
  /** Serve /api/docs and /api/openapi.json (always outside production). */
  apiDocs: boolean;
  /** Redis that every instance shares: rate-limit budgets live there instead of in each process. */
  redisUrl: string | undefined;
  /** Images in S3 when S3_BUCKET is set, else under DATA_DIR. */
  s3: S3Config | undefined;
}

/** An S3-compatible bucket for the images (several instances share it), instead of DATA_DIR. */
export interface S3Config {
  bucket: string;
  /** Unset means AWS. */
  endpoint?: string;
  region: string;
  /** Both or neither: without them the SDK finds credentials itself (AWS_* variables, roles). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** The bucket in the path rather than the host name (most S3-compatible services want it). */
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

type Env = Record<string, string | undefined>;

/** Keys shorter than this make the code hashes and tokens guessable. */
const MIN_SECRET_LENGTH = 32;

const present = (value: string | undefined) =>
  value !== undefined && value.trim() !== '' ? value.trim() : undefined;

function parseUrl(value: string, protocols: string[]): URL | undefined {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the configuration from the environment (contract section 2). Every problem is collected so
 * that one start-up names every bad variable, one line each.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const nodeEnv = present(env.NODE_ENV) ?? 'development';
  const mode: Config['env'] =
    nodeEnv === 'production' ? 'production' : nodeEnv === 'test' ? 'test' : 'development';

  let port = 3000;
  const rawPort = present(env.PORT);
  if (rawPort !== undefined) {
    port = Number(rawPort);
    if (!/^\d+$/.test(rawPort) || port > 65535) {
      problems.push(`PORT must be a whole number from 0 to 65535 (got "${rawPort}")`);
    }
  }

  const host = present(env.HOST) ?? '127.0.0.1';
  const dataDir = path.resolve(present(env.DATA_DIR) ?? './data');

  const databaseUrl = present(env.DATABASE_URL);
  if (databaseUrl && !parseUrl(databaseUrl, ['postgres:', 'postgresql:'])) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }

  let publicUrl = `http://localhost:${port}`;
  const rawPublicUrl = present(env.PUBLIC_URL);
  if (rawPublicUrl !== undefined) {
    const url = parseUrl(rawPublicUrl, ['http:', 'https:']);
    if (!url)
      problems.push(`PUBLIC_URL must be an http:// or https:// URL (got "${rawPublicUrl}")`);
    else publicUrl = rawPublicUrl.replace(/\/+$/, '');
  }

  const smtpUrl = present(env.SMTP_URL);
  if (smtpUrl && !parseUrl(smtpUrl, ['smtp:', 'smtps:'])) {
    problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  }

  const mailFrom = present(env.MAIL_FROM) ?? 'Stockroom <no-reply@localhost>';
  if (!/@/.test(mailFrom))
    problems.push(`MAIL_FROM must contain an e-mail address (got "${mailFrom}")`);

  const rawSecret = present(env.APP_SECRET);
  if (rawSecret !== undefined && rawSecret.length < MIN_SECRET_LENGTH) {
    problems.push(`APP_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`);
  }
  if (rawSecret === undefined && mode === 'production') {
    // Also what keeps instances on one PostgreSQL database from each generating a secret of
    // their own (in separate DATA_DIRs) and refusing each other's tokens and codes.
    problems.push(
      'APP_SECRET is required when NODE_ENV=production (every instance must share the same one)',
    );
  }

  const corsOrigins = (present(env.CORS_ORIGINS) ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const origin of corsOrigins) {
    const url = parseUrl(origin, ['http:', 'https:']);
    if (!url || url.origin !== origin) {
      problems.push(
        `CORS_ORIGINS must list origins like https://app.example.com (got "${origin}")`,
      );
    }
  }

  const positiveInt = (name: string): number | undefined => {
    const raw = present(env[name]);
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      problems.push(`${name} must be a whole number of at least 1 (got "${raw}")`);
      return undefined;
    }
    return Number(raw);
  };
  const rateLimitSensitive = positiveInt('RATE_LIMIT_SENSITIVE');
  const rateLimitGeneral = positiveInt('RATE_LIMIT_GENERAL');

  const trustProxy = parseTrustProxy(present(env.TRUST_PROXY));
  if (trustProxy === undefined) {
    problems.push(
      `TRUST_PROXY must be true, false, a number of proxies, or a comma list of proxy addresses or CIDRs (got "${env.TRUST_PROXY}")`,
    );
  }

  const rawApiDocs = present(env.API_DOCS)?.toLowerCase() ?? 'false';
  if (rawApiDocs !== 'true' && rawApiDocs !== 'false') {
    problems.push(`API_DOCS must be true or false (got "${env.API_DOCS}")`);
  }

  const redisUrl = present(env.REDIS_URL);
  if (redisUrl && !parseUrl(redisUrl, ['redis:', 'rediss:'])?.hostname) {
    problems.push('REDIS_URL must be a redis:// or rediss:// URL with a host');
  }

  const s3 = parseS3(env, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    env: mode,
    port,
    host,
    dataDir,
    databaseUrl,
    publicUrl,
    smtpUrl,
    mailFrom,
    appSecret: rawSecret ?? loadOrCreateSecret(dataDir),
    corsOrigins,
    logLevel: present(env.LOG_LEVEL) ?? (mode === 'test' ? 'silent' : 'info'),
    rateLimitSensitive,
    rateLimitGeneral,
    trustProxy: trustProxy ?? false,
    apiDocs: mode !== 'production' || rawApiDocs === 'true',
    redisUrl,
    s3,
  };
}

/** S3 bucket naming rule (the dotted-IP and prefix rules aside). */
const S3_BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * The S3_* variables, or undefined without S3_BUCKET. Any other S3_* variable set without a bucket
 * is a mistake (a misspelt S3_BUCKET would otherwise keep images on local disk unnoticed).
 * Credentials are never repeated in a problem line.
 */
function parseS3(env: Env, problems: string[]): S3Config | undefined {
  const bucket = present(env.S3_BUCKET);
  if (bucket === undefined) {
    for (const name of Object.keys(env)) {
      if (name.startsWith('S3_') && present(env[name]) !== undefined) {
        problems.push(`${name} is set but S3_BUCKET is not: set S3_BUCKET to keep images in S3`);
      }
    }
    return undefined;
  }
  if (!S3_BUCKET_NAME.test(bucket)) {
    problems.push(
      `S3_BUCKET must be a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit (got "${bucket}")`,
    );
  }

  const endpoint = present(env.S3_ENDPOINT);
  if (endpoint !== undefined && !parseUrl(endpoint, ['http:', 'https:'])?.hostname) {
    problems.push('S3_ENDPOINT must be an http:// or https:// URL with a host');
  }

  const region = present(env.S3_REGION) ?? 'us-east-1';
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/i.test(region)) {
    problems.push(`S3_REGION must be a region name like us-east-1 (got "${region}")`);
  }

  const accessKeyId = present(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = present(env.S3_SECRET_ACCESS_KEY);
  if (accessKeyId !== undefined && secretAccessKey === undefined) {
    problems.push('S3_SECRET_ACCESS_KEY must be set together with S3_ACCESS_KEY_ID');
  }
  if (secretAccessKey !== undefined && accessKeyId === undefined) {
    problems.push('S3_ACCESS_KEY_ID must be set together with S3_SECRET_ACCESS_KEY');
  }

  const rawPathStyle = present(env.S3_FORCE_PATH_STYLE)?.toLowerCase();
  if (rawPathStyle !== undefined && rawPathStyle !== 'true' && rawPathStyle !== 'false') {
    problems.push(`S3_FORCE_PATH_STYLE must be true or false (got "${env.S3_FORCE_PATH_STYLE}")`);
  }

  return {
    bucket,
    ...(endpoint !== undefined && { endpoint }),
    region,
    ...(accessKeyId !== undefined &&
      secretAccessKey !== undefined && {
        accessKeyId,
        secretAccessKey,
      }),
    forcePathStyle: rawPathStyle === undefined ? endpoint !== undefined : rawPathStyle === 'true',
  };
}

/** proxy-addr's names for reserved ranges, which Fastify's trustProxy list also takes. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as Fastify's trustProxy, or undefined when it is not valid. `true` is one hop: trusting
 * every hop would let a client pick its own address by sending X-Forwarded-For itself.
 */
function parseTrustProxy(raw: string | undefined): false | number | string[] | undefined {
  const value = raw?.toLowerCase() ?? 'false';
  if (value === 'false') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length > 0 && entries.every(isProxyAddress) ? entries : undefined;
}

function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * The secret generated once and kept in DATA_DIR, so tokens and codes survive restarts. Several
 * processes may start on one empty DATA_DIR at the same moment: the file appears only whole (see
 * createSecretFile), so every one of them reads the same secret.
 */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  const secret = readSecretFile(file) ?? createSecretFile(file);
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError([
      `APP_SECRET is unset and ${file} holds fewer than ${MIN_SECRET_LENGTH} characters: set APP_SECRET, or delete the file to generate a new secret`,
    ]);
  }
  return secret;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The stored secret, or undefined when there is no file yet. */
function readSecretFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new ConfigError([
      `APP_SECRET is unset and ${file} cannot be read (${errorCode(error) ?? String(error)})`,
    ]);
  }
}

/**
 * Writes a new secret under a temporary name, flushes it, then hard-links it to the final name.
 * A link never replaces an existing file, so the first writer wins and the others read its
 * secret; and the final name only ever points at a complete file, where writing the file in place
 * would let a reader see it empty between its creation and its content.
 */
function createSecretFile(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${secret}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, file);
    syncDirectory(path.dirname(file));
    return secret;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return readSecretFile(file) ?? '';
    throw new ConfigError([
      `APP_SECRET is unset and a secret cannot be written to ${file} (${errorCode(error) ?? String(error)})`,
    ]);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Makes the new directory entry durable, so the secret outlives a power loss. */
function syncDirectory(dir: string) {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems cannot sync a directory; the secret is in place all the same.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
