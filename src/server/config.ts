import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy } from './lib/trust-proxy.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

type Env = Record<string, string | undefined>;

/** Keys shorter than this make the code hashes and tokens guessable. */
export const MIN_SECRET_LENGTH = 32;

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
 * One variable: blank counts as unset (undefined); otherwise `parse` gives its value, or undefined
 * when it is not valid, and the variable's one-line problem is `problem(trimmed, as set)`.
 */
const variable = <T>(
  parse: (value: string) => T | undefined,
  problem: (value: string, raw: string) => string,
) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): T | undefined => {
      const value = present(raw);
      if (value === undefined) return undefined;
      const parsed = parse(value);
      if (parsed === undefined) ctx.addIssue({ code: 'custom', message: problem(value, raw!) });
      return parsed;
    });

/** Set or not, any text will do. */
const text = variable(String, () => '');

const urlOf =
  (protocols: string[], needsHost = false) =>
  (value: string) => {
    const url = parseUrl(value, protocols);
    return url && (!needsHost || url.hostname) ? value : undefined;
  };

/**
 * A host name by its syntax alone (no lookup at start-up): dot-separated labels of letters,
 * digits, hyphens (not at either end) and underscores (container names have them), 63 characters
 * each, 253 in all. A last label of digits only would be an IPv4 address, which isIP checks.
 */
const HOST_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;
const isHostName = (value: string) => {
  const labels = value.replace(/\.$/, '').split('.');
  return (
    value.length <= 253 &&
    labels.every((label) => HOST_LABEL.test(label)) &&
    !/^\d+$/.test(labels.at(-1)!)
  );
};

/** A variable outside the schema (PGHOST, USER…), as pg reads it: blank counts as unset. */
const other = (env: Record<string, unknown>, name: string) => {
  const value = env[name];
  return typeof value === 'string' ? present(value) : undefined;
};

/**
 * Where pg would connect: the URL's host, or its `host=` (a Unix socket's folder), or PGHOST; pg
 * itself would fall back to localhost, which a DATABASE_URL without a host is unlikely to mean.
 */
const databaseHostOf = (url: URL, env: Record<string, unknown>) =>
  url.hostname || url.searchParams.get('host') || other(env, 'PGHOST');

/** The user pg would connect as: the URL's, its `user=`, PGUSER, or the system user's name. */
const databaseUserOf = (url: URL, env: Record<string, unknown>) =>
  url.username ||
  url.searchParams.get('user') ||
  other(env, 'PGUSER') ||
  other(env, process.platform === 'win32' ? 'USERNAME' : 'USER');

const positiveInt = (name: string) =>
  variable(
    (value) => (/^\d+$/.test(value) && Number(value) >= 1 ? Number(value) : undefined),
    (value) => `${name} must be a whole number of at least 1 (got "${value}")`,
  );

const wholeNumber = (name: string) =>
  variable(
    (value) => (/^\d+$/.test(value) ? Number(value) : undefined),
    (value) => `${name} must be a whole number (got "${value}")`,
  );

const boolean = (name: string) =>
  variable(
    (value) => ({ true: true, false: false })[value.toLowerCase()],
    (_value, raw) => `${name} must be true or false (got "${raw}")`,
  );

/** S3 bucket naming rule (the dotted-IP and prefix rules aside). */
const S3_BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * The environment's variables, each checked on its own: every problem is
 * collected so that one start-up names every bad variable, one line each. Rules across variables
 * (production needs APP_SECRET; S3_* needs S3_BUCKET; S3 credentials come in pairs) come after, in
 * the same pass.
 */
const environmentSchema = z
  .looseObject({
    NODE_ENV: text,
    PORT: variable(
      (value) => (/^\d+$/.test(value) && Number(value) <= 65535 ? Number(value) : undefined),
      (value) => `PORT must be a whole number from 0 to 65535 (got "${value}")`,
    ),
    HOST: variable(
      (value) => (isIP(value) || isHostName(value) ? value : undefined),
      (value) => `HOST must be an IP address (like 0.0.0.0 or ::) or a host name (got "${value}")`,
    ),
    DATA_DIR: text,
    // Its host and user are checked with the variables pg also reads (below).
    DATABASE_URL: variable(
      urlOf(['postgres:', 'postgresql:']),
      () => 'DATABASE_URL must be a postgres:// or postgresql:// URL',
    ),
    PUBLIC_URL: variable(
      (value) => (parseUrl(value, ['http:', 'https:']) ? value.replace(/\/+$/, '') : undefined),
      (value) => `PUBLIC_URL must be an http:// or https:// URL (got "${value}")`,
    ),
    SMTP_URL: variable(
      urlOf(['smtp:', 'smtps:'], true),
      () => 'SMTP_URL must be an smtp:// or smtps:// URL with a host',
    ),
    MAIL_FROM: variable(
      (value) => (/@/.test(value) ? value : undefined),
      (value) => `MAIL_FROM must contain an e-mail address (got "${value}")`,
    ),
    APP_SECRET: variable(
      (value) => (value.length >= MIN_SECRET_LENGTH ? value : undefined),
      () => `APP_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`,
    ),
    CORS_ORIGINS: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        const origins = (present(raw) ?? '')
          .split(',')
          .map((origin) => origin.trim().replace(/\/+$/, ''))
          .filter(Boolean);
        for (const origin of origins) {
          if (parseUrl(origin, ['http:', 'https:'])?.origin !== origin) {
            ctx.addIssue({
              code: 'custom',
              message: `CORS_ORIGINS must list origins like https://app.example.com (got "${origin}")`,
            });
          }
        }
        return origins;
      }),
    LOG_LEVEL: text,
    RATE_LIMIT_SENSITIVE: positiveInt('RATE_LIMIT_SENSITIVE'),
    RATE_LIMIT_GENERAL: positiveInt('RATE_LIMIT_GENERAL'),
    LIVE_STREAMS_MAX: positiveInt('LIVE_STREAMS_MAX'),
    LIVE_STREAMS_PER_USER: positiveInt('LIVE_STREAMS_PER_USER'),
    TRUST_PROXY: variable(
      parseTrustProxy,
      (_value, raw) =>
        `TRUST_PROXY must be true, false, a number of proxies, or a comma list of proxy addresses or CIDRs (got "${raw}")`,
    ),
    API_DOCS: boolean('API_DOCS'),
    REDIS_URL: variable(
      urlOf(['redis:', 'rediss:'], true),
      () => 'REDIS_URL must be a redis:// or rediss:// URL with a host',
    ),
    S3_BUCKET: text.superRefine((bucket, ctx) => {
      // Kept when refused, so that the other S3_* variables are not also said to lack it.
      if (bucket !== undefined && !S3_BUCKET_NAME.test(bucket)) {
        ctx.addIssue({
          code: 'custom',
          message: `S3_BUCKET must be a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit (got "${bucket}")`,
        });
      }
    }),
    S3_ENDPOINT: variable(
      (value) => (parseUrl(value, ['http:', 'https:'])?.hostname ? value : undefined),
      () => 'S3_ENDPOINT must be an http:// or https:// URL with a host',
    ),
    S3_REGION: variable(
      (value) => (/^[a-z0-9][a-z0-9-]{0,62}$/i.test(value) ? value : undefined),
      (value) => `S3_REGION must be a region name like us-east-1 (got "${value}")`,
    ),
    S3_ACCESS_KEY_ID: text,
    S3_SECRET_ACCESS_KEY: text,
    S3_FORCE_PATH_STYLE: boolean('S3_FORCE_PATH_STYLE'),
    WEBHOOKS_ALLOW_PRIVATE_NETWORK: boolean('WEBHOOKS_ALLOW_PRIVATE_NETWORK'),
    LOW_STOCK_DIGEST_HOUR: variable(
      (value) => (/^\d+$/.test(value) && Number(value) <= 23 ? Number(value) : undefined),
      (value) => `LOW_STOCK_DIGEST_HOUR must be a whole number from 0 to 23 (got "${value}")`,
    ),
    LOW_STOCK_DIGEST_INTERVAL_SECONDS: positiveInt('LOW_STOCK_DIGEST_INTERVAL_SECONDS'),
    BACKUP_DIR: text,
    BACKUP_KEEP: wholeNumber('BACKUP_KEEP'),
    BACKUP_INTERVAL_HOURS: positiveInt('BACKUP_INTERVAL_HOURS'),
    CATALOGUES_PER_ACCOUNT: positiveInt('CATALOGUES_PER_ACCOUNT'),
    INVITATIONS_PER_ACCOUNT: positiveInt('INVITATIONS_PER_ACCOUNT'),
    COSTLY_WORK_AT_ONCE: positiveInt('COSTLY_WORK_AT_ONCE'),
    COSTLY_WORK_WAITING: positiveInt('COSTLY_WORK_WAITING'),
    COSTLY_WORK_PER_USER: positiveInt('COSTLY_WORK_PER_USER'),
  })
  .superRefine(
    (env, ctx) => {
      const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
      if (env.DATABASE_URL !== undefined) {
        // Without these pg fails at the first query, with a stack trace that names neither.
        const url = new URL(env.DATABASE_URL);
        if (!databaseHostOf(url, env)) {
          problem('DATABASE_URL must name a host, as in postgres://user@host:5432/database');
        } else if (!databaseUserOf(url, env)) {
          problem(
            'DATABASE_URL must name a user, as in postgres://user@host:5432/database (or set PGUSER)',
          );
        }
      }
      if (env.APP_SECRET === undefined && modeOf(env.NODE_ENV) === 'production') {
        // Also what keeps instances on one PostgreSQL database from each generating a secret of
        // their own (in separate DATA_DIRs) and refusing each other's tokens and codes.
        problem(
          'APP_SECRET is required when NODE_ENV=production (every instance must share the same one)',
        );
      }
      if (env.S3_BUCKET === undefined) {
        // A misspelt S3_BUCKET would otherwise keep images on local disk unnoticed. Known
        // variables are unset (undefined) when blank; unknown ones (a misspelt name) are as set.
        const isSet = (value: unknown) =>
          typeof value === 'string' ? present(value) !== undefined : value !== undefined;
        for (const name of Object.keys(env)) {
          if (name.startsWith('S3_') && isSet(env[name])) {
            problem(`${name} is set but S3_BUCKET is not: set S3_BUCKET to keep images in S3`);
          }
        }
      } else if (
        (env.S3_ACCESS_KEY_ID === undefined) !==
        (env.S3_SECRET_ACCESS_KEY === undefined)
      ) {
        problem(
          env.S3_ACCESS_KEY_ID === undefined
            ? 'S3_ACCESS_KEY_ID must be set together with S3_SECRET_ACCESS_KEY'
            : 'S3_SECRET_ACCESS_KEY must be set together with S3_ACCESS_KEY_ID',
        );
      }
    },
    // Also when a variable was refused: every problem is named at once.
    { when: () => true },
  );

const modeOf = (nodeEnv: string | undefined) =>
  nodeEnv === 'production' ? 'production' : nodeEnv === 'test' ? 'test' : 'development';

/** The order problems are listed in: the variables' order in the schema, unknown names last. */
const VARIABLE_ORDER = Object.keys(environmentSchema.shape);
const variableIndex = (line: string) => {
  const index = VARIABLE_ORDER.indexOf(line.split(' ')[0]!);
  return index === -1 ? VARIABLE_ORDER.length : index;
};

/** The configuration the environment's variables make, once each of them is valid. */
const configSchema = environmentSchema.transform((vars) => {
  const mode = modeOf(vars.NODE_ENV);
  const port = vars.PORT ?? 3000;
  return {
    env: mode,
    port,
    host: vars.HOST ?? '127.0.0.1',
    dataDir: path.resolve(vars.DATA_DIR ?? './data'),
    databaseUrl: vars.DATABASE_URL,
    publicUrl: vars.PUBLIC_URL ?? `http://localhost:${port}`,
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM ?? 'Stockroom <no-reply@localhost>',
    /** Unset here means start-up takes the secret from DATA_DIR (app-secret.ts). */
    appSecret: vars.APP_SECRET,
    corsOrigins: vars.CORS_ORIGINS,
    logLevel: vars.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    /** Per-IP requests per minute on each endpoint that sends mail or checks a secret. */
    rateLimitSensitive: vars.RATE_LIMIT_SENSITIVE,
    /** Per-IP requests per minute on each other account, profile and product endpoint. */
    rateLimitGeneral: vars.RATE_LIMIT_GENERAL,
    /** Event streams (`GET /api/events`) one process holds open at most; beyond, 503. */
    liveStreamsMax: vars.LIVE_STREAMS_MAX,
    /** Event streams one user may hold open at once (10 unless set; the benchmark raises it). */
    liveStreamsPerUser: vars.LIVE_STREAMS_PER_USER,
    /**
     * Which reverse proxies to believe about the client's address (X-Forwarded-For, which the rate
     * limits key on) and protocol: none, the nearest N hops, or those addresses and ranges.
     */
    trustProxy: vars.TRUST_PROXY ?? false,
    /** Serve /api/docs and /api/openapi.json (always outside production). */
    apiDocs: mode !== 'production' || vars.API_DOCS === true,
    /** Redis that every instance shares: rate-limit budgets live there instead of in each process. */
    redisUrl: vars.REDIS_URL,
    /** Images in an S3-compatible bucket when S3_BUCKET is set, else under DATA_DIR. */
    s3: vars.S3_BUCKET === undefined ? undefined : s3Config(vars.S3_BUCKET, vars),
    /**
     * Webhooks may call private, loopback and link-local addresses, and plain http: for a
     * receiver on the same network (and the tests). Off, only public https endpoints are called.
     */
    webhooksAllowPrivateNetwork: vars.WEBHOOKS_ALLOW_PRIVATE_NETWORK ?? false,
    /**
     * The daily low-stock digest: sent from this hour of the day (UTC) on, by a job that every
     * instance runs this often (features/low-stock-digest); one instance's claim sends each.
     */
    lowStockDigest: {
      hourUtc: vars.LOW_STOCK_DIGEST_HOUR ?? 7,
      intervalMs: (vars.LOW_STOCK_DIGEST_INTERVAL_SECONDS ?? 600) * 1000,
    },
    /**
     * The server's own backups of the embedded database and the images (infra/backup): one every
     * `intervalMs` into `dir`, the newest `keep` kept; `keep` 0 turns them off. None on PostgreSQL,
     * whose own tools back it up.
     */
    backups: {
      dir: path.resolve(vars.BACKUP_DIR ?? path.join(vars.DATA_DIR ?? './data', 'backups')),
      keep: vars.BACKUP_KEEP ?? 7,
      intervalMs: (vars.BACKUP_INTERVAL_HOURS ?? 24) * 60 * 60 * 1000,
    },
    /**
     * What one account may make, whatever the catalogues it spreads them over: shared catalogues
     * of its own (its personal one aside), and invitations in 24 hours (a fifth of them, at least
     * one, while the account is younger than a day).
     */
    accountBudgets: {
      catalogues: vars.CATALOGUES_PER_ACCOUNT ?? 20,
      invitationsPerDay: vars.INVITATIONS_PER_ACCOUNT ?? 50,
    },
    /**
     * Label PDFs, CSV exports and reports: how many run at once and wait in a process, and how
     * many one user has in progress over every instance (http/costly-work.ts has the defaults).
     */
    costlyWork: {
      atOnce: vars.COSTLY_WORK_AT_ONCE,
      waiting: vars.COSTLY_WORK_WAITING,
      perUser: vars.COSTLY_WORK_PER_USER,
    },
  };
});

/** The bucket's settings; several instances share it. */
function s3Config(bucket: string, vars: z.output<typeof environmentSchema>) {
  const { S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: accessKeyId } = vars;
  const secretAccessKey = vars.S3_SECRET_ACCESS_KEY;
  return {
    bucket,
    /** Unset means AWS. */
    ...(endpoint !== undefined && { endpoint }),
    region: vars.S3_REGION ?? 'us-east-1',
    /** Both or neither: without them the SDK finds credentials itself (AWS_* variables, roles). */
    ...(accessKeyId !== undefined &&
      secretAccessKey !== undefined && { accessKeyId, secretAccessKey }),
    /** The bucket in the path rather than the host name (most S3-compatible services want it). */
    forcePathStyle: vars.S3_FORCE_PATH_STYLE ?? endpoint !== undefined,
  };
}

/** The configuration as the environment gives it: without APP_SECRET, the secret is not known yet. */
export type LoadedConfig = z.infer<typeof configSchema>;
export type Config = Omit<LoadedConfig, 'appSecret'> & { appSecret: string };

/**
 * Reads the configuration from the environment through one zod schema, and throws a ConfigError
 * naming every bad variable, one line each. It reads and writes no file: without APP_SECRET,
 * start-up takes the secret from DATA_DIR (app-secret.ts).
 */
export function loadConfig(env: Env = process.env): LoadedConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => issue.message);
    // Stable: the lines of one variable keep their order.
    throw new ConfigError(problems.sort((a, b) => variableIndex(a) - variableIndex(b)));
  }
  return parsed.data;
}
