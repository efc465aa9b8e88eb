import { describe, expect, it } from 'vitest';
import { buildLogged } from '../support/logs.js';

describe('the development log', async () => {
  const { server, log } = await buildLogged({ NODE_ENV: 'development' });

  it('has one readable line per API request: time, method, URL, status, duration', async () => {
    const before = log.lines.length;
    await server.app.inject({ method: 'GET', url: '/api/health?probe=1' });
    const lines = log.lines.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d GET \/api\/health\?probe=1 200 \d+ ms$/);
  });

  it('is no JSON', async () => {
    await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
    expect(log.lines.length).toBeGreaterThan(0);
    for (const line of log.lines) expect(line.trimStart()).not.toMatch(/^\{/);
  });

  it('still redacts the code of reset-password/{code}', async () => {
    await server.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/493817',
      payload: { password: 'first-Password-1', confirmPassword: 'first-Password-1' },
    });
    const text = log.lines.join('\n');
    expect(text).toMatch(/POST \/api\/auth\/reset-password\/\[redacted\] \d{3} \d+ ms/);
    expect(text).not.toContain('493817');
  });

  it('has no lines for the app and its static assets', async () => {
    const before = log.lines.length;
    await server.app.inject({ method: 'GET', url: '/assets/missing.js' });
    await server.app.inject({ method: 'GET', url: '/auth/login' });
    expect(log.lines.slice(before)).toEqual([]);
  });
});

describe('outside development', async () => {
  const { server, log } = await buildLogged();

  it('the log stays JSON, one entry per line, for a log store', async () => {
    await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(log.lines.length).toBeGreaterThan(0);
    for (const line of log.lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
