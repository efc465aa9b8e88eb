import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';

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
