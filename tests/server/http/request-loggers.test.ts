import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildLogged } from '../support/logs.js';

/** Counts the child loggers made from the app's logger from now on. */
function countChildren(log: FastifyBaseLogger) {
  const child = log.child.bind(log);
  let made = 0;
  log.child = (...args) => {
    made += 1;
    return child(...args);
  };
  return () => made;
}

describe("each request's logger", () => {
  it('is not made for requests that write no line at the level that is on', async () => {
    const { server } = await buildLogged({ LOG_LEVEL: 'warn' });
    const made = countChildren(server.app.log);
    for (let i = 0; i < 3; i += 1) {
      expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    }
    expect(made()).toBe(0);
  });

  it("still binds the request's id to every line it writes", async () => {
    const { server, log } = await buildLogged({ LOG_LEVEL: 'info' });
    const made = countChildren(server.app.log);
    await server.app.inject({ method: 'GET', url: '/api/health' });
    const lines = log.lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string });
    const request = lines.filter((line) => line.msg === 'incoming request');
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(request).toHaveLength(1);
    expect(completed).toHaveLength(1);
    expect(request[0]!.reqId).toEqual(expect.any(String));
    expect(completed[0]!.reqId).toBe(request[0]!.reqId);
    expect(made()).toBe(1);
  });
});
