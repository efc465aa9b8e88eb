import { describe, expect, it } from 'vitest';
import { M } from '../../../src/shared/messages.js';
import { bulkLimit } from '../../../src/server/http/rate-limits.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { exportCsv, importCsv, UNKNOWN_ID } from '../support/products.js';

/**
 * CSV import, CSV export and bulk delete each cost up to 50,000 rows or 10 MB: together they get
 * one budget per IP, so a client that spreads its requests over the three gets no more.
 */
describe('the costly catalogue operations share one rate limit', async () => {
  const rateLimits = { general: 30 };
  const server = await build({ rateLimits });
  const user = await signIn(server);
  const budget = bulkLimit({ windowMs: 60_000, sensitive: 20, ...rateLimits });
  const bulkDelete = () =>
    server.app.inject({
      method: 'POST',
      url: '/api/products/bulk-delete',
      headers: user.headers,
      payload: { ids: [UNKNOWN_ID] },
    });
  const csv = 'name,price,stock,description\nLamp,1.00,1,A lamp\n';
  const requests = [
    () => exportCsv(server, user),
    () => bulkDelete(),
    () => importCsv(server, user, csv, 'dryRun=true'),
  ];

  it('counts requests to any of them in one bucket', async () => {
    expect(budget).toBe(3);
    const statuses = [];
    for (const send of requests) {
      const res = await send();
      statuses.push(res.statusCode);
      expect(res.headers['x-ratelimit-limit']).toBe(String(budget));
    }
    expect(statuses).toEqual([200, 404, 200]);
    for (const send of requests) {
      const res = await send();
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ message: M.tooManyRequests });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('leaves the other product routes their own budget', async () => {
    const list = await server.app.inject({
      method: 'GET',
      url: '/api/products',
      headers: user.headers,
    });
    expect(list.statusCode).toBe(200);
  });
});
