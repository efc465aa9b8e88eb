import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

type Env = Record<string, string | undefined>;

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
  if (rawSecret !== undefined && rawSecret.length < 32) {
    problems.push('APP_SECRET must be at least 32 characters long');
  }
  if (rawSecret === undefined && mode === 'production') {
    problems.push('APP_SECRET is required when NODE_ENV=production');
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

/** A secret generated once and kept in DATA_DIR, so tokens and codes survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    try {
      writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another process won the race: use what it wrote.
      return readFileSync(file, 'utf8').trim();
    }
  }
}
