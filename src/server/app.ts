import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { M } from '../shared/messages.js';
import type { Config } from './config.js';
import { settings } from './decorators.js';
import { healthRoutes } from './features/health/index.js';
import {
  devMailboxAnswers,
  devMailboxRoutes,
  keepsDevMailbox,
} from './features/dev-mailbox/index.js';
import { imageRoutes } from './features/images/index.js';
import {
  accountDataRoutes,
  accountsPlugin,
  deviceSessionRoutes,
  passkeyRoutes,
  preferenceRoutes,
  profileRoutes,
  secondStepRoutes,
  sessionRoutes,
  signInRoutes,
  twoFactorRoutes,
} from './features/accounts/index.js';
import { productRoutes, productsPlugin, stockTransferRoutes } from './features/products/index.js';
import {
  catalogueRoutes,
  cataloguesRoutes,
  catalogueScope,
  mirrorOfPersonalRoutes,
  personalCatalogueScope,
} from './features/catalogues/index.js';
import { catalogueOpsRoutes } from './features/catalogue-ops/index.js';
import { reportsRoutes } from './features/reports/index.js';
import { idempotencyPlugin } from './features/idempotency/index.js';
import { liveEventRoutes, liveEventsPlugin } from './features/live-events/index.js';
import { activityPlugin, activityRoutes } from './features/activity/index.js';
import {
  catalogueInvitationRoutes,
  invitationsPlugin,
  receivedInvitationRoutes,
} from './features/invitations/index.js';
import {
  webhookRoutes,
  webhooksPlugin,
  type WebhooksPluginOptions,
} from './features/webhooks/index.js';
import { lowStockDigestPlugin } from './features/low-stock-digest/index.js';
import { locationRoutes, locationsPlugin } from './features/locations/index.js';
import {
  productSupplierRoutes,
  purchasingPlugin,
  purchasingRoutes,
} from './features/purchasing/index.js';
import { countRoutes, countsPlugin } from './features/counts/index.js';
import { protectedScope, publicScope } from './http/authenticate.js';
import { registerClient } from './http/client/serve-client.js';
import { registerCompression } from './http/ecosystem/compress.js';
import { registerCors } from './http/ecosystem/cors.js';
import { registerRateLimit } from './http/ecosystem/rate-limit.js';
import { registerErrorHandling } from './http/errors.js';
import { registerGracefulClose } from './http/graceful-close.js';
import { registerScope } from './http/plugin-name.js';
import { lazyChildLoggerFactory } from './http/logging/lazy-child-logger.js';
import { serializeRequest } from './http/logging/log-redaction.js';
import { ApiRequestLog, readableLogStream } from './http/logging/readable-log.js';
import { registerOpenApi } from './http/openapi/document.js';
import { serveApiDocs } from './http/openapi/serve-docs.js';
import { defaultRateLimits, type RateLimits } from './http/rate-limits.js';
import { acceptRequestClockOffsets } from './http/request-clock-offset.js';
import {
  defaultTimeouts,
  registerRequestTimeouts,
  timeoutServerOptions,
  type Timeouts,
} from './http/request-timeouts.js';
import { answerUnmetExpectations, clientErrorHandler } from './http/client-errors.js';
import { costlyWorkPlugin, DEFAULT_COSTLY_WORK } from './http/costly-work.js';
import { registerRouteRegistry } from './http/route-registry.js';
import { registerRouteResponses } from './http/route-responses.js';
import {
  appContentSecurityPolicy,
  registerSecurityHeaders,
  setSecurityHeaders,
} from './http/security-headers.js';
import type { DatabaseHandle } from './infra/db/handle.js';
import { databasePlugin } from './infra/db/plugin.js';
import { imagesPlugin } from './infra/images/plugin.js';
import type { ImageStorage } from './infra/images/storage.js';
import { outboxPlugin } from './infra/mail/plugin.js';
import { runnerPlugin } from './infra/runner/plugin.js';
import { userLeasesPlugin } from './infra/leases/plugin.js';
import { backupsPlugin } from './infra/backup/plugin.js';
import { systemClock, type Clock } from './lib/clock.js';

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
  /** How webhooks resolve host names and how long an attempt may take (tests). */
  webhooks?: WebhooksPluginOptions;
  /**
   * Run the background work (mail, webhook deliveries, the digest, the sweeps) once the app is
   * ready. The server entry does; a test only when it tests that work (else it drains a queue or
   * runs a job itself).
   */
  background?: boolean;
}

export type App = FastifyInstance;

const defaultClientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client');

/**
 * Builds the whole server in Fastify's order: ecosystem plugins, infrastructure and its
 * decorators, hooks, then the features, each in the scope that protects it or not. It does not
 * listen.
 */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const timeouts = { ...defaultTimeouts, ...options.timeouts };
  // In development a person reads the log: readable lines, one per API request (readable-log.ts).
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
    // Closing answers in the API's shape instead (http/graceful-close.ts).
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
    // What Node refuses before it is a request (headers over 16 KB, not HTTP): the same shape.
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  answerUnmetExpectations(app);

  // The API takes JSON (and multipart for images): Fastify's built-in text/plain parser would let a
  // text body through to validation as a string, so other types get a 415 instead.
  app.removeContentTypeParser('text/plain');
  acceptEmptyJson(app);
  // Hooks that must see every route as it is added, the ecosystem's included (CORS adds one).
  registerGracefulClose(app);
  registerRouteRegistry(app);
  registerRouteResponses(app);

  // 1. Ecosystem plugins. The OpenAPI document is always built (tests and scripts/openapi.ts read
  // it); it is served per API_DOCS.
  await registerCors(app, config.corsOrigins);
  await registerRateLimit(app, config.redisUrl, options.rateLimitNamespace);
  await registerCompression(app);
  await registerOpenApi(app, config);

  // 2. Infrastructure and what it decorates the app with.
  const clock = options.clock ?? systemClock;
  await app.register(settings, {
    config,
    clock: config.env === 'test' ? acceptRequestClockOffsets(app, clock) : clock,
    rateLimits: {
      ...defaultRateLimits,
      ...(config.rateLimitSensitive ? { sensitive: config.rateLimitSensitive } : {}),
      ...(config.rateLimitGeneral ? { general: config.rateLimitGeneral } : {}),
      ...options.rateLimits,
    },
  });
  await app.register(databasePlugin, { database });
  await app.register(imagesPlugin, { images: options.images });
  await app.register(runnerPlugin, { start: options.background ?? false });
  await app.register(backupsPlugin);
  await app.register(outboxPlugin);
  await app.register(userLeasesPlugin);
  const { atOnce, waiting, perUser } = config.costlyWork;
  await app.register(costlyWorkPlugin, {
    bounds: {
      atOnce: atOnce ?? DEFAULT_COSTLY_WORK.atOnce,
      waiting: waiting ?? DEFAULT_COSTLY_WORK.waiting,
      perUser: perUser ?? DEFAULT_COSTLY_WORK.perUser,
    },
  });
  // What features give the whole app: the session lookup, the code mails the outbox sends.
  await app.register(accountsPlugin);
  await app.register(idempotencyPlugin);
  await app.register(liveEventsPlugin);
  await app.register(activityPlugin);
  await app.register(invitationsPlugin);
  await app.register(webhooksPlugin, options.webhooks ?? {});
  await app.register(lowStockDigestPlugin);
  await app.register(locationsPlugin);
  await app.register(purchasingPlugin);
  await app.register(countsPlugin);

  // 3. Hooks of every request.
  registerErrorHandling(app);
  registerRequestTimeouts(app, timeouts);
  registerSecurityHeaders(app);

  // 4. Features: what answers without a token, then what needs one. A route is protected by the
  // scope it is registered in (http/authenticate.ts), not by anything it declares.
  await registerScope(app, 'public', {}, async (scope) => {
    publicScope(scope);
    await scope.register(healthRoutes, { prefix: '/api' });
    await scope.register(signInRoutes, { prefix: '/api/auth' });
    await scope.register(secondStepRoutes, { prefix: '/api/auth' });
    await scope.register(imageRoutes, { prefix: '/api/images' });
    if (keepsDevMailbox(config)) await scope.register(devMailboxRoutes, { prefix: '/api/dev' });
  });
  await registerScope(app, 'protected', {}, async (scope) => {
    protectedScope(scope);
    await scope.register(sessionRoutes, { prefix: '/api/auth' });
    await scope.register(profileRoutes, { prefix: '/api/auth/profile' });
    await scope.register(preferenceRoutes, { prefix: '/api/auth/preferences' });
    await scope.register(twoFactorRoutes, { prefix: '/api/auth/mfa' });
    await scope.register(passkeyRoutes, { prefix: '/api/auth/passkeys' });
    await scope.register(deviceSessionRoutes, { prefix: '/api/auth/sessions' });
    await scope.register(productsPlugin, { responseCacheBytes: options.responseCacheBytes });
    // After the products' plugin: the export reads products, a deletion removes their pictures.
    await scope.register(accountDataRoutes, { prefix: '/api/auth' });
    // The caller's personal catalogue at /api/products, and every catalogue they belong to at
    // /api/catalogues/{catalogueId}: the same routes in two scopes that find the catalogue.
    await registerScope(scope, 'personal', { prefix: '/api/products' }, async (personal) => {
      personalCatalogueScope(personal);
      await personal.register(productRoutes);
      await personal.register(productSupplierRoutes);
      await personal.register(catalogueOpsRoutes);
      await personal.register(activityRoutes);
      await personal.register(reportsRoutes);
    });
    await registerScope(scope, 'personal', { prefix: '/api/locations' }, async (personal) => {
      personalCatalogueScope(personal);
      await personal.register(locationRoutes);
    });
    await registerScope(scope, 'personal', { prefix: '/api/stock' }, async (personal) => {
      personalCatalogueScope(personal);
      await personal.register(stockTransferRoutes);
    });
    await registerScope(scope, 'personal', { prefix: '/api' }, async (personal) => {
      personalCatalogueScope(personal);
      await personal.register(purchasingRoutes);
      await personal.register(countRoutes, { prefix: '/counts' });
    });
    const catalogue = { prefix: '/api/catalogues/:catalogueId' };
    await registerScope(scope, 'catalogue', catalogue, async (shared) => {
      catalogueScope(shared);
      await shared.register(catalogueRoutes);
      await shared.register(catalogueInvitationRoutes);
      await shared.register(webhookRoutes);
      await registerScope(shared, 'mirror', { prefix: '/products' }, async (mirror) => {
        mirrorOfPersonalRoutes(mirror);
        await mirror.register(productRoutes);
        await mirror.register(productSupplierRoutes);
        await mirror.register(catalogueOpsRoutes);
      });
      await registerScope(shared, 'mirror', { prefix: '/locations' }, async (mirror) => {
        mirrorOfPersonalRoutes(mirror);
        await mirror.register(locationRoutes);
      });
      await registerScope(shared, 'mirror', { prefix: '/stock' }, async (mirror) => {
        mirrorOfPersonalRoutes(mirror);
        await mirror.register(stockTransferRoutes);
      });

      // The activity, reports, purchasing and counts of a catalogue at /api/catalogues/{catalogueId}/….
      await registerScope(shared, 'mirror', {}, async (mirror) => {
        mirrorOfPersonalRoutes(mirror);
        await mirror.register(activityRoutes);
        await mirror.register(reportsRoutes);
        await mirror.register(purchasingRoutes);
        await mirror.register(countRoutes, { prefix: '/counts' });
      });
    });
    await scope.register(cataloguesRoutes, { prefix: '/api/catalogues' });
    await scope.register(liveEventRoutes, { prefix: '/api' });
    await scope.register(receivedInvitationRoutes, { prefix: '/api/invitations' });
  });
  await serveApiDocs(app);

  await registerClient(app, options.clientDir ?? defaultClientDir, {
    contentSecurityPolicy: (hashes) => appContentSecurityPolicy(config, hashes),
    ...(keepsDevMailbox(config)
      ? { devMailbox: (request: FastifyRequest) => devMailboxAnswers(config, request) }
      : {}),
  });
  return app;
}

/**
 * An empty body sent as JSON is no body: many clients label every request JSON, a logout or a
 * delete included. A route that needs a body still says so (validation sees none); anything else
 * goes through Fastify's own parser, with its guards against prototype poisoning.
 */
function acceptEmptyJson(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') done(null, undefined);
    else parseJson(request, text, done);
  });
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
