import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';

describe('health and readiness', async () => {
  const server = await build();

  it('GET /api/health answers while the process is up', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/ready checks the database', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  // Which routes and statuses it documents: tests/server/http/route-schemas.test.ts.
  it('serves an OpenAPI document and its UI', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
    const docs = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.statusCode).toBeLessThan(400);
  });

  it('unknown API paths are a JSON 404', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('sends nosniff on every answer', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
