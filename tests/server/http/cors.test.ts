import { describe, expect, it } from 'vitest';
import { signIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import { createProduct } from '../support/products.js';

/** A header's comma list, lowercased. */
const listOf = (value: unknown) => String(value).toLowerCase().split(/,\s*/);

describe('CORS_ORIGINS', async () => {
  const allowed = 'https://app.example.com';
  const server = await build({ env: { CORS_ORIGINS: `${allowed},https://other.example.com` } });
  const preflight = (origin: string) =>
    server.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/profile',
      headers: {
        origin,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('a listed origin passes the preflight for Authorization, Content-Type and every method', async () => {
    const res = await preflight(allowed);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
    const methods = String(res.headers['access-control-allow-methods']).split(/,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
    const headers = String(res.headers['access-control-allow-headers']).toLowerCase();
    expect(headers.split(/,\s*/)).toEqual(
      expect.arrayContaining(['authorization', 'content-type']),
    );
  });

  it('a listed origin passes the preflight of every write the API takes, with its headers', async () => {
    // What the app sends when it is hosted elsewhere: a keyed stock change from the stepper, the
    // event stream resumed, a product's suppliers replaced.
    for (const method of ['PUT', 'POST', 'PATCH', 'DELETE']) {
      const res = await server.app.inject({
        method: 'OPTIONS',
        url: '/api/products/00000000-0000-4000-8000-000000000000/suppliers',
        headers: {
          origin: allowed,
          'access-control-request-method': method,
          'access-control-request-headers':
            'authorization,content-type,idempotency-key,stockroom-source,last-event-id',
        },
      });
      expect(res.statusCode, method).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(allowed);
      expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toContain(method);
      expect(listOf(res.headers['access-control-allow-headers'])).toEqual(
        expect.arrayContaining([
          'authorization',
          'content-type',
          'idempotency-key',
          'stockroom-source',
          'last-event-id',
        ]),
      );
    }
  });

  it('a listed origin may read the headers the API answers with', async () => {
    const user = await signIn(server);
    const product = await createProduct(server, user);
    const put = await server.app.inject({
      method: 'PUT',
      url: `/api/products/${product.id}/suppliers`,
      headers: { ...user.headers, origin: allowed },
      payload: { suppliers: [] },
    });
    expect(put.statusCode).toBe(200);
    expect(put.headers['access-control-allow-origin']).toBe(allowed);
    const change = () =>
      server.app.inject({
        method: 'POST',
        url: `/api/products/${product.id}/stock`,
        headers: { ...user.headers, origin: allowed, 'idempotency-key': 'cors-1' },
        payload: { delta: 1 },
      });
    expect((await change()).statusCode).toBe(200);
    const again = await change();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['access-control-allow-origin']).toBe(allowed);
    expect(listOf(again.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining([
        'live-event-id',
        'idempotent-replayed',
        'retry-after',
        'content-disposition',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ]),
    );
  });

  it('a listed origin gets Access-Control-Allow-Origin on the real request too', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: allowed },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
  });

  it('an unlisted origin gets no Access-Control-Allow-Origin', async () => {
    for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.net']) {
      const res = await preflight(origin);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const get = await server.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { origin },
      });
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('a request without Origin (curl, servers) just works', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
