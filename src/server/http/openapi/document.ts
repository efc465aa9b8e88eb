import { STATUS_CODES } from 'node:http';
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import type { OpenAPIV3 } from 'openapi-types';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { isOperation } from '../route-responses.js';
import { isRateLimited } from '../route-options.js';
import { registerComponents } from './components.js';

/** The name of the bearer scheme in components.securitySchemes. */
const BEARER = 'bearer';

const TAGS: OpenAPIV3.TagObject[] = [
  { name: 'auth', description: 'Sign-up, confirmation, login, password reset, the signed-in user' },
  { name: 'profile', description: "The signed-in user's name, e-mail and password" },
  { name: 'two-factor', description: 'A code from an authenticator app after the password' },
  { name: 'passkeys', description: 'Passkeys: a second step, or a login without a password' },
  {
    name: 'sessions',
    description: 'Where the account is signed in: the list, ending one or all others',
  },
  {
    name: 'products',
    description: "The products of a catalogue: the caller's own, or a shared one",
  },
  { name: 'catalogues', description: 'Catalogues shared by their members, and who may do what' },
  {
    name: 'locations',
    description: 'Where the stock is: a tree of places per catalogue, each with a code to scan',
  },
  {
    name: 'counts',
    description: 'Stock-takes: counting a place, a tag or everything, reviewing and posting',
  },
  {
    name: 'purchasing',
    description: 'Suppliers, purchase orders and receiving what was ordered',
  },
  { name: 'activity', description: 'Who changed what in a catalogue, and undoing a change' },
  { name: 'webhooks', description: "HTTPS endpoints told of a catalogue's changes, signed" },
  { name: 'images', description: 'Product pictures, public by their unguessable names' },
  { name: 'health', description: 'For load balancers and orchestrators' },
  { name: 'development', description: 'Only outside production, and only to a local browser' },
];

const integer = (maximum: number): OpenAPIV3.SchemaObject => ({
  type: 'integer',
  format: 'int32',
  minimum: 0,
  maximum,
});

/** Response headers, named once (components.headers) by the names they go by. */
const HEADERS: Record<string, OpenAPIV3.HeaderObject> = {
  'Access-Control-Allow-Origin': {
    description: "The request's Origin, when CORS_ORIGINS lists it; absent for same-origin calls.",
    schema: { type: 'string', format: 'uri', maxLength: 2_048 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    required: true,
    // A spent code-guessing budget of an account can take up to a day to come back.
    schema: integer(86_400),
  },
  'X-RateLimit-Limit': {
    description: 'Requests this address may make to this endpoint per window.',
    schema: integer(2_147_483_647),
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: integer(2_147_483_647),
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends.',
    schema: integer(86_400),
  },
};

/**
 * What each status means, where the route's schema does not say. Statuses a route declares itself
 * (403, 404, 409) get one text for every route: keep it true of each route that sends it.
 */
const STATUS_TEXT: Record<string, string> = {
  400: 'Invalid input: malformed JSON, or fields that fail validation (each listed in `errors`).',
  401: 'The token is missing, invalid, expired or revoked.',
  403: 'The account is not confirmed yet; a new code was sent (mail budget permitting).',
  404: 'Not found; another user’s product is not found either.',
  408: 'The request did not arrive in time (60 s, uploads 120 s).',
  409: 'Conflicts with the current state: an e-mail that another account uses, for one.',
  413: 'The body or the image is too large.',
  415: 'A body type the API does not take, or a file that is not an accepted image.',
  429: 'Too many requests: wait `Retry-After` seconds.',
  500: 'An unexpected failure; the message says nothing more.',
  503: 'The database is unreachable, the server is shutting down, or it is busy with costly answers (labels, exports, reports): retry after `Retry-After` seconds.',
};

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });

type Responses = Record<string, OpenAPIV3.ResponseObject>;

/** Statuses, descriptions and headers of one operation, from its route. */
function describeResponses(responses: Responses, route: RouteOptions) {
  const limited = isRateLimited(route.config);
  for (const [status, response] of Object.entries(responses)) {
    if (response.description === 'Default Response') {
      response.description = STATUS_TEXT[status] ?? STATUS_CODES[status] ?? status;
    }
    // @fastify/cors answers every request of an allowed origin, before any route; @fastify/rate-limit
    // counts every request before the route runs, and says so in each answer.
    const names = [
      'Access-Control-Allow-Origin',
      ...(limited ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] : []),
      ...(status === '429' || status === '503' ? ['Retry-After'] : []),
    ];
    const headers = Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
    response.headers = { ...response.headers, ...headers };
  }
}

/** Every `$ref` under a value. */
function refsIn(value: unknown, found: Set<string>) {
  if (Array.isArray(value)) {
    for (const item of value) refsIn(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.add(child);
      else refsIn(child, found);
    }
  }
}

/**
 * Drops the schema components nothing refers to: the zod transform writes an input and an output
 * variant of every named shape, and most are only ever one of the two.
 */
function pruneSchemas(document: OpenAPIV3.Document) {
  const schemas = document.components?.schemas ?? {};
  const prefix = '#/components/schemas/';
  const used = new Set<string>();
  const visit = (value: unknown) => {
    const found = new Set<string>();
    refsIn(value, found);
    for (const target of found) {
      if (!target.startsWith(prefix) || used.has(target)) continue;
      used.add(target);
      visit(schemas[target.slice(prefix.length)]);
    }
  };
  visit({ ...document, components: { ...document.components, schemas: {} } });
  for (const name of Object.keys(schemas)) {
    if (!used.has(prefix + name)) delete schemas[name];
  }
}

const isContentMap = (body: unknown): body is { content: Record<string, { schema: unknown }> } =>
  typeof body === 'object' && body !== null && 'content' in body;

/**
 * Whether a route's body may be left out (shared/schemas/common.ts, optionalBody): its schema takes
 * what Fastify validates an absent body as, null. @fastify/swagger marks every body required.
 */
const bodyOptional = (route: RouteOptions) => {
  const body = (route.schema as { body?: unknown } | undefined)?.body;
  return body instanceof z.ZodType && body.safeParse(null).success;
};

const zodTransform = createJsonSchemaTransform({ skipList: [] });

/**
 * One route into the document: zod schemas to JSON Schema (fastify-type-provider-zod), a body per
 * media type where the route has several (`body.content`), the path as clients call it (a
 * collection's route is registered as '/api/products/' and answers '/api/products' too), and the
 * security its config says: routes are protected unless `config.public` (http/authenticate.ts).
 */
const routeTransform: SwaggerTransform = (input) => {
  const { schema, route } = input;
  const body = (schema as { body?: unknown } | undefined)?.body;
  const perType = isContentMap(body) ? body.content : undefined;
  const result = zodTransform(
    perType ? { ...input, schema: { ...schema, body: undefined } } : input,
  );
  const url = result.url.replace(/(.)\/$/, '$1');
  if (!isOperation(route)) return { ...result, url };
  const transformed: FastifySchema & Record<string, unknown> = { ...result.schema };
  if (perType) {
    const content = Object.entries(perType).map(([type, { schema: typeSchema }]) => {
      const one = zodTransform({ ...input, schema: { body: typeSchema } as FastifySchema });
      return [type, { schema: one.schema.body }];
    });
    transformed.body = { content: Object.fromEntries(content) };
  }
  transformed.security = route.config?.public ? [] : [{ [BEARER]: [] }];
  return { schema: transformed, url };
};

/**
 * The whole document once every route is in: the named components, what each status means and
 * the headers it carries (from each route's config), and no component that nothing uses.
 */
const documentTransform =
  (app: FastifyInstance): SwaggerTransformObject =>
  (input) => {
    const document = createJsonSchemaTransformObject({})(input) as OpenAPIV3.Document;
    const operations = new Map<string, OpenAPIV3.OperationObject>();
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods ?? {})) {
        const { operationId } = operation as OpenAPIV3.OperationObject;
        if (operationId) operations.set(operationId, operation as OpenAPIV3.OperationObject);
      }
    }
    for (const route of app.registeredRoutes) {
      if (!isOperation(route) || route.method === 'HEAD') continue;
      const { operationId } = route.schema as { operationId: string };
      const operation = operations.get(operationId);
      if (!operation) continue;
      describeResponses(operation.responses as Responses, route);
      if (operation.requestBody && bodyOptional(route)) {
        (operation.requestBody as OpenAPIV3.RequestBodyObject).required = false;
      }
    }
    pruneSchemas(document);
    return document;
  };

/**
 * Builds the OpenAPI document from the routes as they are registered (app.swagger() gives it;
 * register this before any route). Whether it is served is another matter (app.ts, API_DOCS).
 */
export async function registerOpenApi(app: FastifyInstance, config: Config) {
  registerComponents();
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Stockroom API',
        version: '1.0.0',
        description:
          'Accounts and per-user product catalogues. Send `Authorization: Bearer <token>` (from `logIn`) to every operation whose security asks for it.',
        license: { name: 'Proprietary' },
      },
      servers: [
        {
          url: config.publicUrl,
          description: `This ${config.env} server (PUBLIC_URL)`,
          // Read by API inventories (OWASP API9): the API is meant for the public internet.
          ...({ 'x-internal': false } as object),
        },
      ],
      tags: TAGS,
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'opaque',
            description:
              'An opaque token from `logIn` (or `changePassword`): 7 days, revoked by `logOut` and by a password change or reset.',
          },
        },
        headers: HEADERS,
      },
    },
    transform: routeTransform,
    transformObject: documentTransform(app),
  });
}
