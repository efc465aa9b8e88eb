import { pipeline, Readable, Transform } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import prismRouter from '@stoplight/prism-http/dist/router/index.js';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isRateLimited } from '../../../src/server/http/route-options.js';

/**
 * Every answer of our API operations, checked against the OpenAPI document the app serves, by
 * Stoplight Prism's validator (the one its validating proxy runs): the status must be documented
 * for the operation, the media type one of that status's, each documented header valid (and
 * present where required), and the body valid against the documented schema. The path is matched
 * against the document's paths as a gateway would (a trailing slash the document lacks does not
 * match). Installed on every test server by build() (support/build.ts).
 */

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;
type Operation = Operations[number];

/** Prism's router: a CommonJS default export, which Node gives as `.default` and Vitest unwraps. */
type Route = typeof prismRouter.default;
const route: Route =
  typeof prismRouter === 'function' ? (prismRouter as unknown as Route) : prismRouter.default;
type HttpMethod = Parameters<Route>[0]['input']['method'];

/** Prism's severities: 0 error, 1 warning; both fail the check. */
const FAILING = 1;

/** Prism's operations of the documents seen in this process, by what each was made from. */
const operationsBySource = new Map<string, Promise<Operations>>();

/**
 * Each zod schema met, as a short name for its definition and registered metadata: schemas do not
 * change once made, and the shared ones are met by every app, so each is written out once.
 */
const zodNames = new WeakMap<object, string>();
const namesByText = new Map<string, string>();

function zodAsData(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('_zod' in value)) return value;
  let name = zodNames.get(value);
  if (name === undefined) {
    const schema = value as z.core.$ZodType;
    const text = JSON.stringify(
      { def: schema._zod.def, meta: z.globalRegistry.get(schema) },
      zodAsData,
    );
    name = namesByText.get(text) ?? `zod ${namesByText.size}`;
    namesByText.set(text, name);
    zodNames.set(value, name);
  }
  return name;
}

/**
 * What an app's document is made from (src/server/http/openapi/document.ts): its public address
 * and environment, the named shapes, and each route's method, path, schema and the config the
 * document reads. Apps built alike give the same text; undefined when a schema cannot be written
 * out (a cycle).
 */
function sourceOf(app: FastifyInstance): string | undefined {
  try {
    return JSON.stringify(
      [
        app.config.publicUrl,
        app.config.env,
        [...z.globalRegistry._idmap],
        app.registeredRoutes.map((route) => [
          route.method,
          route.url,
          route.schema,
          route.config?.public === true,
          isRateLimited(route.config),
        ]),
      ],
      zodAsData,
    );
  } catch {
    return undefined;
  }
}

/**
 * The app's operations, read from its document. Making the document was half of what building a
 * test server cost, so an app made from the same routes and shapes as one before reuses its
 * operations.
 */
function operationsOf(app: FastifyInstance): Promise<Operations> {
  const key = sourceOf(app);
  let operations = key === undefined ? undefined : operationsBySource.get(key);
  if (!operations) {
    operations = getHttpOperationsFromSpec(JSON.parse(JSON.stringify(app.swagger())) as object);
    if (key !== undefined) operationsBySource.set(key, operations);
  }
  return operations;
}

export interface ResponseCheck {
  method: string;
  url: string;
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What is wrong with one answer, by the document's operations: nothing when the list is empty. */
export function problemsWith(operations: Operations, answer: ResponseCheck): string[] {
  const [path = '', query = ''] = answer.url.split('?', 2);
  // A HEAD answer is its GET's, without the body on the wire (the payload checked here has it).
  const method = (answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase()) as HttpMethod;
  const routed = route({
    resources: operations,
    input: {
      method,
      url: { path, query: Object.fromEntries(new URLSearchParams(query)) },
      headers: {},
    },
  });
  if (routed._tag === 'Left') return [`no such operation in the document: ${routed.left.message}`];
  const operation: Operation = routed.right;
  // Prism's router is lenient (it takes '/api/products/' for '/api/products/{id}'); a gateway is
  // not, though it reads '%2D' as '-' (RFC 3986 normalization).
  if (!templateOf(operation.path).test(decodeURI(path))) {
    return [`no such operation in the document: ${path} is not ${operation.path}`];
  }
  const result = validateOutput({
    resource: operation,
    element: { statusCode: answer.statusCode, headers: answer.headers, body: bodyOf(answer) },
  });
  if (result._tag === 'Right') return [];
  return result.left
    .filter((diagnostic) => diagnostic.severity <= FAILING)
    .map((diagnostic) =>
      [diagnostic.path?.join('.'), diagnostic.message].filter(Boolean).join(': '),
    );
}

/** A path template of the document ('/api/products/{id}') as a whole-path pattern. */
const templateOf = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );

/** The body as a client reads it: decompressed, JSON parsed, anything else as text. */
function bodyOf({ headers, body }: ResponseCheck): unknown {
  const encoding = headers['content-encoding'];
  const bytes =
    encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
  if (/^application\/json(;|$)/i.test(headers['content-type'] ?? '')) {
    return bytes.length === 0 ? undefined : (JSON.parse(bytes.toString('utf8')) as unknown);
  }
  // A file is a string of bytes to the schema (type: string, format: binary).
  return bytes.toString('latin1');
}

const headersOf = (reply: FastifyReply) =>
  Object.fromEntries(
    Object.entries(reply.getHeaders()).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(', ') : String(value),
    ]),
  );

/**
 * A route of ours: matched (not the not-found handler), and not added by another library
 * (config.thirdParty, set by registerPublic: the client's files, the docs, CORS preflight).
 */
const isOurRoute = (request: FastifyRequest) =>
  request.routeOptions.url !== undefined && request.routeOptions.config.thirdParty !== true;

interface ResponseWatch {
  /** Reads the served document; call once the app is ready, before any request. */
  start(): Promise<void>;
  /** The problems found since the last call, one line per answer. */
  take(): string[];
}

/**
 * Checks each answer of `app`'s operations as it is sent (an onSend hook, so answers over a real
 * socket are checked as well as injected ones). Install before the app is ready. A streamed body
 * is checked once it has gone out whole. Other routes (the client's files, the docs, CORS
 * preflight, unknown paths) are not the API's.
 */
export function watchResponses(app: FastifyInstance): ResponseWatch {
  let operations: Operations | undefined;
  const problems: string[] = [];

  const check = (request: FastifyRequest, reply: FastifyReply, body: Buffer) => {
    const answer = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      headers: headersOf(reply),
      body,
    };
    if (!operations) {
      problems.push(`${answer.method} ${answer.url}: answered before the document was read`);
      return;
    }
    for (const problem of problemsWith(operations, answer)) {
      problems.push(`${answer.method} ${answer.url} → ${answer.statusCode}: ${problem}`);
    }
  };

  app.addHook('onSend', async (request, reply, payload: unknown) => {
    if (!isOurRoute(request)) return payload;
    if (payload instanceof Readable) {
      // Passes the bytes on as they come, and checks them all once the last has passed.
      const chunks: Buffer[] = [];
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done(null, chunk);
        },
        flush(done) {
          check(request, reply, Buffer.concat(chunks));
          done();
        },
      });
      pipeline(payload, tap, () => {});
      return tap;
    }
    const body =
      payload === null || payload === undefined
        ? Buffer.alloc(0)
        : Buffer.isBuffer(payload)
          ? payload
          : Buffer.from(String(payload));
    check(request, reply, body);
    return payload;
  });

  return {
    async start() {
      operations = await operationsOf(app);
    },
    take: () => problems.splice(0),
  };
}
