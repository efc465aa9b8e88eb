import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

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
interface S3Config {
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

/** The configuration as the environment gives it: without APP_SECRET, the secret is not known yet. */
export type LoadedConfig = Omit<Config, 'appSecret'> & { appSecret: string | undefined };

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
const text = variable(
  (value) => value,
  () => '',
);

const urlOf =
  (protocols: string[], needsHost = false) =>
  (value: string) => {
    const url = parseUrl(value, protocols);
    return url && (!needsHost || url.hostname) ? value : undefined;
  };

const positiveInt = (name: string) =>
  variable(
    (value) => (/^\d+$/.test(value) && Number(value) >= 1 ? Number(value) : undefined),
    (value) => `${name} must be a whole number of at least 1 (got "${value}")`,
  );

const boolean = (name: string) =>
  variable(
    (value) => ({ true: true, false: false })[value.toLowerCase()],
    (_value, raw) => `${name} must be true or false (got "${raw}")`,
  );

/**
 * The environment's variables, each checked on its own: every problem is
 * collected so that one start-up names every bad variable, one line each. Rules across variables
 * (production needs APP_SECRET; the S3_* group) come after, in the same pass.
 */
const environmentSchema = z
  .looseObject({
    NODE_ENV: text,
    PORT: variable(
      (value) => (/^\d+$/.test(value) && Number(value) <= 65535 ? Number(value) : undefined),
      (value) => `PORT must be a whole number from 0 to 65535 (got "${value}")`,
    ),
    HOST: text,
    DATA_DIR: text,
    DATABASE_URL: variable(
      urlOf(['postgres:', 'postgresql:']),
      () => 'DATABASE_URL must be a postgres:// or postgresql:// URL',
    ),
    PUBLIC_URL: variable(
      (value) => (parseUrl(value, ['http:', 'https:']) ? value.replace(/\/+$/, '') : undefined),
      (value) => `PUBLIC_URL must be an http:// or https:// URL (got "${value}")`,
    ),
    SMTP_URL: variable(
      urlOf(['smtp:', 'smtps:']),
      () => 'SMTP_URL must be an smtp:// or smtps:// URL',
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
    // The S3_* group is checked as a whole below: its rules are about the variables together.
    S3_BUCKET: text,
    S3_ENDPOINT: text,
    S3_REGION: text,
    S3_ACCESS_KEY_ID: text,
    S3_SECRET_ACCESS_KEY: text,
    // Its problem line quotes the value as set.
    S3_FORCE_PATH_STYLE: z
      .string()
      .optional()
      .transform((raw) =>
        present(raw) === undefined ? undefined : { value: present(raw)!.toLowerCase(), raw: raw! },
      ),
  })
  .superRefine(
    (env, ctx) => {
      const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
      if (env.APP_SECRET === undefined && modeOf(env.NODE_ENV) === 'production') {
        // Also what keeps instances on one PostgreSQL database from each generating a secret of
        // their own (in separate DATA_DIRs) and refusing each other's tokens and codes.
        problem(
          'APP_SECRET is required when NODE_ENV=production (every instance must share the same one)',
        );
      }
      for (const message of s3Problems(env)) problem(message);
    },
    // Also when a variable was refused: every problem is named at once.
    { when: () => true },
  );

type Environment = z.output<typeof environmentSchema>;

const modeOf = (nodeEnv: string | undefined): Config['env'] =>
  nodeEnv === 'production' ? 'production' : nodeEnv === 'test' ? 'test' : 'development';

/** The order problems are listed in: the variables' order in the schema, unknown names last. */
const VARIABLE_ORDER = Object.keys(environmentSchema.shape);
const variableIndex = (line: string) => {
  const index = VARIABLE_ORDER.indexOf(line.split(' ')[0]!);
  return index === -1 ? VARIABLE_ORDER.length : index;
};

/**
 * Reads the configuration from the environment through one zod schema, and
 * throws a ConfigError naming every bad variable, one line each. It reads and writes no file:
 * without APP_SECRET, start-up takes the secret from DATA_DIR (app-secret.ts).
 */
export function loadConfig(env: Env = process.env): LoadedConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => issue.message);
    // Stable: the lines of one variable keep their order.
    throw new ConfigError(problems.sort((a, b) => variableIndex(a) - variableIndex(b)));
  }
  const vars = parsed.data;
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
    appSecret: vars.APP_SECRET,
    corsOrigins: vars.CORS_ORIGINS,
    logLevel: vars.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    rateLimitSensitive: vars.RATE_LIMIT_SENSITIVE,
    rateLimitGeneral: vars.RATE_LIMIT_GENERAL,
    trustProxy: vars.TRUST_PROXY ?? false,
    apiDocs: mode !== 'production' || vars.API_DOCS === true,
    redisUrl: vars.REDIS_URL,
    s3: s3Config(vars),
  };
}

/** S3 bucket naming rule (the dotted-IP and prefix rules aside). */
const S3_BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * What is wrong with the S3_* variables. Any S3_* variable set without S3_BUCKET is a mistake (a
 * misspelt S3_BUCKET would otherwise keep images on local disk unnoticed). Credentials are never
 * repeated in a problem line.
 */
function s3Problems(env: Environment): string[] {
  const bucket = env.S3_BUCKET;
  if (bucket === undefined) {
    // Known variables are unset (undefined) when blank; others (a misspelt name) are as set.
    const isSet = (value: unknown) =>
      typeof value === 'string' ? present(value) !== undefined : value !== undefined;
    return Object.keys(env)
      .filter((name) => name.startsWith('S3_') && isSet(env[name]))
      .map((name) => `${name} is set but S3_BUCKET is not: set S3_BUCKET to keep images in S3`);
  }
  const problems: string[] = [];
  if (!S3_BUCKET_NAME.test(bucket)) {
    problems.push(
      `S3_BUCKET must be a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit (got "${bucket}")`,
    );
  }
  const endpoint = env.S3_ENDPOINT;
  if (endpoint !== undefined && !parseUrl(endpoint, ['http:', 'https:'])?.hostname) {
    problems.push('S3_ENDPOINT must be an http:// or https:// URL with a host');
  }
  const region = env.S3_REGION ?? 'us-east-1';
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/i.test(region)) {
    problems.push(`S3_REGION must be a region name like us-east-1 (got "${region}")`);
  }
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if (accessKeyId !== undefined && secretAccessKey === undefined) {
    problems.push('S3_SECRET_ACCESS_KEY must be set together with S3_ACCESS_KEY_ID');
  }
  if (secretAccessKey !== undefined && accessKeyId === undefined) {
    problems.push('S3_ACCESS_KEY_ID must be set together with S3_SECRET_ACCESS_KEY');
  }
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle !== undefined && pathStyle.value !== 'true' && pathStyle.value !== 'false') {
    problems.push(`S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle.raw}")`);
  }
  return problems;
}

/** The S3 settings of valid variables, or undefined without S3_BUCKET. */
function s3Config(env: Environment): S3Config | undefined {
  const bucket = env.S3_BUCKET;
  if (bucket === undefined) return undefined;
  const endpoint = env.S3_ENDPOINT;
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  const pathStyle = env.S3_FORCE_PATH_STYLE?.value;
  return {
    bucket,
    ...(endpoint !== undefined && { endpoint }),
    region: env.S3_REGION ?? 'us-east-1',
    ...(accessKeyId !== undefined &&
      secretAccessKey !== undefined && {
        accessKeyId,
        secretAccessKey,
      }),
    forcePathStyle: pathStyle === undefined ? endpoint !== undefined : pathStyle === 'true',
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
