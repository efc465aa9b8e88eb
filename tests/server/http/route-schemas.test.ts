import type { HTTPMethods, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../../src/server/accounts/sessions.js';
import { insertUser } from '../../../src/server/accounts/users.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';

/**
 * Every error status each of our routes can send, and nothing more (200/201 aside). The reasons
 * are in src/server/routes/shared.ts (errorResponses); the tests named in each comment send them.
 */
const ERROR_STATUSES: Record<string, number[]> = {
  // Public account routes: a body, a per-IP limit and the database (auth/*.test.ts, db/outage).
  'POST /api/auth/signup': [400, 413, 415, 429, 503],
  'POST /api/auth/confirm-account': [400, 413, 415, 429, 503],
  'POST /api/auth/resend-confirmation': [400, 413, 415, 429, 503],
  // 403: an account that is not confirmed yet (auth/login.test.ts).
  'POST /api/auth/login': [400, 403, 413, 415, 429, 503],
  'POST /api/auth/forgot-password': [400, 413, 415, 429, 503],
  'POST /api/auth/validate-password-token': [400, 413, 415, 429, 503],
  'POST /api/auth/reset-password/:token': [400, 413, 415, 429, 503],
  'GET /api/auth/user': [401, 429, 503],
  'POST /api/auth/logout': [400, 401, 413, 415, 429, 503],
  // 409: the new e-mail belongs to another account (profile/profile.test.ts).
  'PATCH /api/auth/profile': [400, 401, 409, 413, 415, 429, 503],
  'POST /api/auth/profile/change-password': [400, 401, 413, 415, 429, 503],
  'GET /api/health': [],
  'GET /api/ready': [503],
  'GET /api/products': [400, 401, 429, 503],
  'POST /api/products': [400, 401, 413, 415, 429, 503],
  // A malformed id is an unknown one: 404, not 400 (products/crud.test.ts).
  'GET /api/products/:id': [401, 404, 429, 503],
  'PATCH /api/products/:id': [400, 401, 404, 413, 415, 429, 503],
  'DELETE /api/products/:id': [400, 401, 404, 413, 415, 429, 503],
  // Catalogue operations (products/csv-*, stock, filters, bulk-delete tests). 409: an adjustment
  // that would take the stock below 0; 404 in a bulk delete: an id that is not the caller's.
  'GET /api/products/summary': [400, 401, 429, 503],
  'GET /api/products/export.csv': [400, 401, 429, 503],
  'POST /api/products/import': [400, 401, 413, 415, 429, 503],
  'POST /api/products/bulk-delete': [400, 401, 404, 413, 415, 429, 503],
  'POST /api/products/:id/stock': [400, 401, 404, 409, 413, 415, 429, 503],
  'GET /api/products/:id/movements': [400, 401, 404, 429, 503],
  'GET /api/images/:name': [404],
  'GET /api/dev/mails': [404],
};

/** Routes that read nothing from a POST, PATCH or DELETE body (they still parse one). */
const NO_BODY = ['POST /api/auth/logout', 'DELETE /api/products/:id'];

/** Where the unknown resource is named in the body, not the URL: a body that names one. */
const NOT_FOUND_BODIES: Record<string, object> = {
  'POST /api/products/bulk-delete': { ids: ['00000000-0000-4000-8000-000000000000'] },
};

interface Route {
  name: string;
  method: HTTPMethods;
  url: string;
  options: RouteOptions;
  schema: Record<string, unknown>;
  response: Record<string, unknown>;
}

const documented = (route: Route) => Object.keys(route.response).map(Number);
const errorsOf = (route: Route) => documented(route).filter((status) => status >= 400);

/** A URL for a route pattern: a value that passes each parameter's schema. */
const sample = (url: string) =>
  url
    .replace(':token', '123456')
    .replace(':id', '00000000-0000-4000-8000-000000000000')
    .replace(':name', 'missing.webp');

/**
 * The walk over every registered route. Ours are the routes not added through registerPublic
 * (config.thirdParty): CORS preflight, the API docs (and their JSON) and the client's files
 * are other libraries' routes and document nothing of ours.
 */
describe('every route declares its request and response schemas', async () => {
  const server = await build();
  const user = await signIn(server);

  const ours: Route[] = server.app.registeredRoutes
    .filter((route) => route.config?.thirdParty !== true)
    .flatMap((options) =>
      [options.method]
        .flat()
        // Fastify adds a HEAD route for each GET, with the GET's options.
        .filter((method) => method !== 'HEAD')
        .map((method) => {
          const url = options.url!.replace(/(.)\/$/, '$1');
          const schema = (options.schema ?? {}) as Record<string, unknown>;
          return {
            name: `${method} ${url}`,
            method: method as HTTPMethods,
            url,
            options,
            schema,
            response: (schema.response ?? {}) as Record<string, unknown>,
          };
        }),
    );

  it('walks exactly our routes', () => {
    expect(ours.map((route) => route.name).sort()).toEqual(Object.keys(ERROR_STATUSES).sort());
  });

  it('declares a response for success and for every error', () => {
    for (const route of ours) {
      expect(documented(route).filter((status) => status < 300).length, route.name).toBe(1);
      expect(errorsOf(route).sort(), route.name).toEqual(ERROR_STATUSES[route.name]);
    }
  });

  it('declares the input it takes: params, query and body', () => {
    for (const route of ours) {
      const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
      if (params.length > 0) {
        const shape = (route.schema.params as { shape?: object } | undefined)?.shape ?? {};
        expect(Object.keys(shape), route.name).toEqual(params);
      }
      const takesBody = ['POST', 'PATCH'].includes(route.method) && !NO_BODY.includes(route.name);
      expect(route.schema.body !== undefined, `${route.name} body`).toBe(takesBody);
    }
    const list = ours.find((route) => route.name === 'GET /api/products')!;
    expect(list.schema.querystring).toBeDefined();
  });

  it('documents 401 exactly where a token is needed, 429 where a limit applies', () => {
    for (const route of ours) {
      const errors = errorsOf(route);
      expect(errors.includes(401), route.name).toBe(route.options.config?.public !== true);
      const limited = (route.options.config as { rateLimit?: unknown } | undefined)?.rateLimit;
      expect(errors.includes(429), route.name).toBe(limited !== undefined);
    }
  });

  it('documents 403 and 409 only on the route that sends each', () => {
    const with403 = ours.filter((route) => errorsOf(route).includes(403));
    const with409 = ours.filter((route) => errorsOf(route).includes(409));
    expect(with403.map((route) => route.name)).toEqual(['POST /api/auth/login']);
    expect(with409.map((route) => route.name)).toEqual([
      'PATCH /api/auth/profile',
      'POST /api/products/:id/stock',
    ]);
  });

  /** Three bodies no route takes, and what each is refused with where a body is read. */
  const BAD_BODIES = [
    { status: 400, type: 'application/json', payload: '{' },
    { status: 413, type: 'application/json', payload: JSON.stringify({ x: 'x'.repeat(70_000) }) },
    { status: 415, type: 'text/plain', payload: 'hello' },
  ];

  it('refuses a bad body with 400, 413 and 415 where one is read, and documents them', async () => {
    for (const route of ours) {
      const readsBody = route.method !== 'GET';
      if (!readsBody) {
        expect(errorsOf(route), route.name).not.toContain(413);
        expect(errorsOf(route), route.name).not.toContain(415);
      }
      for (const { status, type, payload } of BAD_BODIES) {
        const res = await server.app.inject({
          method: route.method,
          url: sample(route.url),
          headers: { ...user.headers, 'content-type': type },
          payload,
        });
        const name = `${route.name} (${type}, ${payload.length} bytes)`;
        if (readsBody) {
          expect(res.statusCode, name).toBe(status);
          expect(errorsOf(route), name).toContain(status);
        } else {
          // A GET ignores its body: what it answers does not depend on one.
          expect([400, 413, 415], name).not.toContain(res.statusCode);
        }
      }
    }
  });

  it('sends 404 where it documents one: an unknown id or image, the mailbox to a stranger', async () => {
    for (const route of ours.filter((candidate) => errorsOf(candidate).includes(404))) {
      const res = await server.app.inject({
        method: route.method,
        url: sample(route.url),
        headers: user.headers,
        // Not the developer's machine: the development mailbox is not there for it.
        remoteAddress: '10.1.2.3',
        ...(route.method === 'GET' ? {} : { payload: NOT_FOUND_BODIES[route.name] ?? {} }),
      });
      expect(res.statusCode, route.name).toBe(404);
    }
  });

  it('documents in the OpenAPI description what the routes declare', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        name: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1').replace(/(.)\/$/, '$1')}`,
        statuses: Object.keys(operation.responses).map(Number).sort(),
      })),
    );
    // The development mailbox is registered here (no SMTP) and documented like any route.
    expect(operations.map((operation) => operation.name).sort()).toEqual(
      ours.map((route) => route.name).sort(),
    );
    for (const operation of operations) {
      const route = ours.find((candidate) => candidate.name === operation.name)!;
      expect(operation.statuses, operation.name).toEqual(documented(route).sort());
    }
  });
});

/**
 * The per-IP limits, probed on every route: with a budget of one request per window, the second
 * request from an address gets 429 exactly where the route documents it.
 */
describe('every rate-limited route documents 429, and only those', async () => {
  const server = await build({ rateLimits: { sensitive: 1, general: 1 } });
  // A session written straight to the database: signing in through the API would spend budgets.
  const userId = await insertUser(
    server.database.db,
    { name: 'Rita', email: 'rita@example.com', passwordHash: 'unused' },
    server.clock.now(),
  );
  const token = await createSession(server.database.db, server.clock, userId);

  it('answers the second request from one address with 429 where documented', async () => {
    const routes = server.app.registeredRoutes.filter(
      (route) => route.config?.thirdParty !== true && route.method !== 'HEAD',
    );
    expect(routes.length).toBe(Object.keys(ERROR_STATUSES).length);
    for (const [index, route] of routes.entries()) {
      const method = route.method as HTTPMethods;
      const name = `${method} ${route.url.replace(/(.)\/$/, '$1')}`;
      // An address of its own per route: budgets are per IP and per route.
      const remoteAddress = `10.0.${Math.floor(index / 200)}.${(index % 200) + 1}`;
      const send = () =>
        server.app.inject({
          method,
          url: sample(route.url),
          remoteAddress,
          headers: { authorization: `Bearer ${token}` },
          ...(method === 'GET' ? {} : { payload: {} }),
        });
      await send();
      const second = await send();
      const documents429 = ERROR_STATUSES[name]!.includes(429);
      expect(second.statusCode === 429, name).toBe(documents429);
    }
  });
});
