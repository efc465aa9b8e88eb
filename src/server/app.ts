import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { M } from '../shared/messages.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/handle.js';
import { decorateServices } from './decorators.js';
import { createImageStorage } from './images/create-storage.js';
import type { ImageStorage } from './images/storage.js';
import { systemClock, type Clock } from './lib/clock.js';
import { acceptRequestClockOffsets } from './lib/request-clock-offset.js';
import { connectRedis } from './lib/redis.js';
import { lazyChildLoggerFactory } from './lib/lazy-child-logger.js';
import { serializeRequest } from './lib/log-redaction.js';
import { ApiRequestLog, readableLogStream } from './lib/readable-log.js';
import { loadBuiltPages, type BuiltPage } from './built-pages.js';
import { defaultRateLimits, type RateLimits } from './rate-limits.js';
import { registerAuthentication, registerPublic } from './plugins/authenticate.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerGracefulClose } from './plugins/graceful-close.js';
import { registerRouteRegistry } from './plugins/route-registry.js';
import { registerRouteResponses } from './plugins/route-responses.js';
import { registerOpenApi } from './openapi/document.js';
import {
  defaultTimeouts,
  registerRequestTimeouts,
  timeoutServerOptions,
  type Timeouts,
} from './plugins/request-timeouts.js';
import {
  appContentSecurityPolicy,
  registerSecurityHeaders,
  setSecurityHeaders,
} from './plugins/security-headers.js';
import { authRoutes } from './routes/auth/index.js';
import { devMailboxRoutes } from './routes/dev-mailbox.js';
import { healthRoutes } from './routes/health.js';
import { imageRoutes } from './routes/images/index.js';
import { profileRoutes } from './routes/profile/index.js';
import { productRoutes } from './routes/products/index.js';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  rateLimits?: Partial<RateLimits>;
  /** Prefix of the rate-limit keys in Redis (tests that share one Redis keep theirs apart). */
  rateLimitNamespace?: string;
  images?: ImageStorage;
  /** Where the built client lives; the server serves it when present. */
  clientDir?: string;
  /** Bytes of product answers kept in memory; 0 makes every read query (the benchmark compares). */
  responseCacheBytes?: number;
  /** How long clients may take to send a request or an upload, and stay idle (milliseconds). */
  timeouts?: Partial<Timeouts>;
  /** Where log lines go instead of stdout (tests read what was logged). */
  logStream?: { write(line: string): void };
}

export type App = FastifyInstance;

const defaultClientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client');

/** Builds the whole server: plugins first, then one route module per feature. It does not listen. */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const timeouts = { ...defaultTimeouts, ...options.timeouts };
  // In development a person reads the log: readable lines, one per API request (lib/readable-log).
  const readableLog = config.env === 'development';
  const logStream = readableLog
    ? readableLogStream(options.logStream ?? process.stdout)
    : options.logStream;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: serializeRequest },
      ...(logStream ? { stream: logStream } : {}),
    },
    ...(readableLog ? { logController: new ApiRequestLog() } : {}),
    childLoggerFactory: lazyChildLoggerFactory,
    // JSON bodies are small; images go through multipart with their own limit.
    bodyLimit: 64 * 1024,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    ...timeoutServerOptions(timeouts),
    // Closing answers in the API's shape instead (plugins/graceful-close).
    return503OnClosing: false,
    // Every schema is zod's, compiled by fastify-type-provider-zod: naming its compilers here keeps
    // Fastify from building its defaults (Ajv, fast-json-stringify), which no route would use.
    schemaController: { compilersFactory: zodCompilers },
    // A malformed URL (bad percent-encoding) never reaches a route: answer in our error shape.
    // Fastify sends it before any hook runs, so its headers are set here.
    frameworkErrors: (_error, request, reply: FastifyReply) => {
      setSecurityHeaders(request, reply);
      void reply.code(400).send({ message: M.badRequestUrl });
    },
  }).withTypeProvider<ZodTypeProvider>();

  // The API takes JSON (and multipart for images): Fastify's built-in text/plain parser would let a
  // text body through to validation as a string, so other types get a 415 instead.
  app.removeContentTypeParser('text/plain');
  registerGracefulClose(app);
  registerRouteRegistry(app);
  database.reportConnectionErrorsTo((error) =>
    app.log.warn({ err: error }, 'database connection lost; the pool opens a new one'),
  );

  const images =
    options.images ??
    createImageStorage({ dataDir: config.dataDir, publicUrl: config.publicUrl, ...config.s3 });
  const clock = options.clock ?? systemClock;
  decorateServices(app, {
    config,
    database,
    clock: config.env === 'test' ? acceptRequestClockOffsets(app, clock) : clock,
    rateLimits: {
      ...defaultRateLimits,
      ...(config.rateLimitSensitive ? { sensitive: config.rateLimitSensitive } : {}),
      ...(config.rateLimitGeneral ? { general: config.rateLimitGeneral } : {}),
      ...options.rateLimits,
    },
    images,
  });
  // Before any route: every route added after this needs a token unless declared public, and
  // documents what it can be refused for.
  registerAuthentication(app);
  registerRouteResponses(app);

  registerErrorHandling(app);
  registerRequestTimeouts(app, timeouts);
  registerSecurityHeaders(app);

  // Preflight requests never carry a token: its route is public.
  await registerPublic(app, () =>
    app.register(cors, {
      // Same-origin needs nothing; requests without Origin (curl, servers) are always allowed.
      origin: (origin, callback) => callback(null, !origin || config.corsOrigins.includes(origin)),
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      maxAge: 600,
    }),
  );
  // With REDIS_URL every instance counts against the same budgets, which outlive restarts; without
  // Redis (unset, or down for a while) each process counts alone or not at all, but keeps serving.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : undefined;
  if (redis) {
    // Counted from the first request when Redis is up; start-up is not held for long when it is not.
    app.addHook('onReady', () => redis.ready(2_000));
    app.addHook('onClose', async () => redis.close());
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis && {
      redis: redis.client,
      nameSpace: options.rateLimitNamespace ?? 'stockroom:rate-limit:',
      skipOnError: true,
    }),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: M.tooManyRequests,
      retryAfter: context.after,
    }),
  });
  // JSON answers over 1 KB go out compressed. Before the routes: it hooks each route as it is
  // added. Only JSON: the client's files come pre-compressed from the build (registerClient) and
  // images are WebP already. The cached product reads set their own Content-Encoding, which this
  // leaves alone. Request bodies are not decompressed: the API takes none.
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: /^application\/json(;|$)/,
    globalDecompression: false,
  });
  // The document is always built (tests and scripts/openapi.ts read it); it is served per API_DOCS.
  await registerOpenApi(app, config);
  if (config.apiDocs) await registerPublic(app, () => serveApiDocs(app));

  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api/auth' });
  await app.register(profileRoutes, { prefix: '/api/auth/profile' });
  await app.register(productRoutes, {
    prefix: '/api/products',
    responseCacheBytes: options.responseCacheBytes,
  });
  await app.register(imageRoutes, { prefix: '/api/images' });
  const devMailbox = config.env !== 'production' && !config.smtpUrl;
  if (devMailbox) await app.register(devMailboxRoutes, { prefix: '/api/dev' });

  await registerClient(app, options.clientDir ?? defaultClientDir, {
    contentSecurityPolicy: (scriptHashes) => appContentSecurityPolicy(config, scriptHashes),
    devMailbox,
  });

  app.addHook('onClose', async () => {
    await app.outbox.stop();
    // Storage the app made is the app's to close; one passed in belongs to the caller.
    if (!options.images) images.close?.();
  });
  return app;
}

/**
 * The zod compilers as Fastify's compiler factories. Fastify types the factories after Ajv's
 * (JSON Schema in); what they return is called with each route's schema, here a zod schema.
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/**
 * TRUST_PROXY for Fastify. A hop count becomes a function: Fastify reads a plain number as "trust
 * nobody", because a hop count cannot tell the proxy from a client that reached the port
 * directly. With a count the port must be reachable only through the proxies (or list them).
 */
function fastifyTrustProxy(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

/**
 * The OpenAPI document and its UI (config.apiDocs: off in production unless API_DOCS=true). The
 * UI's plugin is only loaded when it is served.
 */
async function serveApiDocs(app: App) {
  const { default: swaggerUi } = await import('@fastify/swagger-ui');
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** The encoding of a page the client takes, best first (a q=0 refuses one). */
function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

function sendPage(reply: FastifyReply, page: BuiltPage, acceptEncoding: string | undefined) {
  const encoding = pageEncoding(acceptEncoding);
  reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding')
    .header('content-security-policy', page.contentSecurityPolicy);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? page[encoding] : page.identity);
}

/**
 * Serves the built React app: hashed assets cached for a year, and for every other GET outside
 * the API the page of its path (src/server/built-pages.ts), never cached and under the
 * Content-Security-Policy. The build leaves a .br and a .gz beside each asset
 * (scripts/precompress.ts); they are sent to clients that take them, compressed once, not per
 * request. The HTML files are sent only as pages, never as files of their own.
 */
async function registerClient(
  app: App,
  clientDir: string,
  options: Parameters<typeof loadBuiltPages>[1],
) {
  const pages = await loadBuiltPages(clientDir, options);
  if (pages) {
    await registerPublic(app, () =>
      app.register(fastifyStatic, {
        root: clientDir,
        wildcard: false,
        index: false,
        cacheControl: false,
        preCompressed: true,
        allowedPath: (pathName) => !pathName.endsWith('.html'),
        setHeaders: (reply, sentPath) => {
          const hashed = sentPath.includes(`${path.sep}assets${path.sep}`);
          reply.header(
            'cache-control',
            hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      }),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (!isApi && pages && (request.method === 'GET' || request.method === 'HEAD')) {
      return sendPage(reply, pages.pageFor(request.url), request.headers['accept-encoding']);
    }
    return reply.code(404).send({ message: M.notFound });
  });
}
