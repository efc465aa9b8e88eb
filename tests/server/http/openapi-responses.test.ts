import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { build } from '../support/build.js';
import { problemsWith, type ResponseCheck } from '../support/openapi-responses.js';
import { signIn } from '../support/accounts.js';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The check every test server runs on its answers (support/openapi-responses.ts, installed by
 * build()): shown here to pass the real answers and to catch answers that the document does not
 * describe, one way of being wrong at a time.
 */
describe('answers are checked against the served OpenAPI document', async () => {
  const server = await build();
  const operations = await getHttpOperationsFromSpec(
    (await server.app.inject({ url: '/api/openapi.json' })).json() as object,
  );
  const problems = (answer: Partial<ResponseCheck>) =>
    problemsWith(operations, {
      method: 'GET',
      url: '/api/health',
      statusCode: 200,
      headers: { 'content-type': JSON_TYPE },
      body: json({ status: 'ok' }),
      ...answer,
    });

  it('passes an answer as documented', () => {
    expect(problems({})).toEqual([]);
    expect(
      problems({
        method: 'POST',
        url: '/api/auth/login',
        statusCode: 429,
        headers: { 'content-type': JSON_TYPE, 'retry-after': '60', 'x-ratelimit-limit': '20' },
        body: json({ message: 'Too many requests. Please try again later.' }),
      }),
    ).toEqual([]);
  });

  it('catches a status the operation does not document', () => {
    expect(problems({ statusCode: 418 }).join()).toMatch(/status code/);
    // A 404 from the activity log, which never sends one.
    expect(
      problems({
        url: '/api/products/activity',
        statusCode: 404,
        body: json({ message: 'Not found' }),
      }).join(),
    ).toMatch(/status code/);
  });

  it('catches a media type the status does not document', () => {
    expect(problems({ headers: { 'content-type': 'text/html' } }).join()).toMatch(/media type/);
    expect(
      problems({
        url: '/api/images/placeholder-0123456789ab.svg',
        headers: { 'content-type': JSON_TYPE },
      }).join(),
    ).toMatch(/media type/);
  });

  it('catches a body that does not match the schema', () => {
    expect(problems({ body: json({ status: 'fine' }) }).join()).toMatch(/status/);
    const product = {
      id: 'not-a-uuid',
      name: 'Lamp',
      price: '19.99',
      stock: 2,
      description: 'A lamp',
      image: 'http://stockroom.test/api/images/x.webp',
      thumbnail: 'http://stockroom.test/api/images/y.webp',
    };
    const found = problems({
      url: '/api/products',
      body: json({ products: [product], nextCursor: null }),
    }).join('\n');
    expect(found).toMatch(/products\.0\.id.*uuid/);
    expect(found).toMatch(/products\.0\.price.*number/);
    // A field the schema does not name.
    expect(problems({ body: json({ status: 'ok', secret: 'x' }) }).join()).toMatch(/additional/);
  });

  it('catches a missing or malformed header', () => {
    const tooMany = {
      method: 'POST',
      url: '/api/auth/login',
      statusCode: 429,
      body: json({ message: 'Too many requests. Please try again later.' }),
    };
    expect(problems({ ...tooMany, headers: { 'content-type': JSON_TYPE } }).join()).toMatch(
      /retry-after/i,
    );
    expect(
      problems({
        ...tooMany,
        headers: { 'content-type': JSON_TYPE, 'retry-after': 'later' },
      }).join(),
    ).toMatch(/retry-after/i);
  });

  it('catches a path the document does not have, as a gateway would', () => {
    expect(problems({ url: '/api/products/' }).join()).toMatch(/no such operation/);
    expect(problems({ url: '/api/nothing' }).join()).toMatch(/no such operation/);
  });
});

describe('a test server fails on an answer the document does not describe', async () => {
  // A deliberately wrong answer: the health check's body as no version of the API sent it.
  const server = await build({
    beforeReady: (app) =>
      app.addHook('onSend', async (request, _reply, payload) =>
        request.url === '/api/health?wrong' ? JSON.stringify({ status: 'fine' }) : payload,
      ),
  });

  it('records it, naming the request and what is wrong', async () => {
    const res = await server.app.inject({ url: '/api/health?wrong' });
    expect(res.json()).toEqual({ status: 'fine' });
    const found = server.takeUndocumentedAnswers();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^GET \/api\/health\?wrong → 200: .*status/);
  });

  it('records nothing for the answers as they are', async () => {
    const user = await signIn(server);
    await server.app.inject({ url: '/api/health' });
    await server.app.inject({ url: '/api/products', headers: user.headers });
    await server.app.inject({ url: '/api/images/missing.webp' });
    expect(server.takeUndocumentedAnswers()).toEqual([]);
  });
});

describe('each test server is checked against its own document', async () => {
  // Two servers alike but for one route's documented status: the second must not be checked
  // against the first's document, which build() reuses for servers made from the same routes.
  const withProbe = (status: 200 | 201) =>
    build({
      beforeReady: (app) =>
        app.withTypeProvider<ZodTypeProvider>().get(
          '/api/probe',
          {
            schema: {
              operationId: 'probe',
              tags: ['health'],
              response: { [status]: z.object({ n: z.number() }) },
            },
          },
          async () => ({ n: 1 }),
        ),
    });
  const documented = await withProbe(200);
  const other = await withProbe(201);

  it('records an answer only where its document does not describe it', async () => {
    await documented.app.inject({ url: '/api/probe' });
    expect(documented.takeUndocumentedAnswers()).toEqual([]);
    const res = await other.app.inject({ url: '/api/probe' });
    expect(res.statusCode).toBe(200);
    expect(other.takeUndocumentedAnswers().join()).toMatch(/^GET \/api\/probe → 200: .*status/);
  });
});
