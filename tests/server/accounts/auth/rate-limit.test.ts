import { describe, expect, it } from 'vitest';
import { M } from '../../../../src/shared/messages.js';
import { accounts, expectMessage, newEmail, PASSWORD } from '../../support/accounts.js';
import { build } from '../../support/build.js';

/**
 * Logins with a wrong password from the address `client`; with a `proxy` address, the requests
 * come from the proxy and name `client` in X-Forwarded-For, as a reverse proxy sends them.
 */
const failedLogin = (steps: ReturnType<typeof accounts>, proxy?: string) => (client: string) =>
  steps.api({
    url: '/api/auth/login',
    body: { email: newEmail('limited'), password: PASSWORD },
    ...(proxy
      ? { remoteAddress: proxy, headers: { 'x-forwarded-for': client } }
      : { remoteAddress: client }),
  });

describe('per-IP rate limits on the account endpoints', async () => {
  const server = await build({ rateLimits: { sensitive: 3, general: 5 } });
  const steps = accounts(server);
  const login = failedLogin(steps);

  it('the 4th login from one IP within the window gets 429 with Retry-After and a message', async () => {
    for (let i = 0; i < 3; i++) expectMessage(await login('10.0.0.1'), 400, M.badCredentials);
    const limited = await login('10.0.0.1');
    expectMessage(limited, 429, M.tooManyRequests);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toMatch(/^application\/json/);
  });

  it('another IP is not affected', async () => {
    expectMessage(await login('10.0.0.2'), 400, M.badCredentials);
  });

  it('each sensitive endpoint counts on its own', async () => {
    const forgot = (remoteAddress: string) =>
      steps.api({
        url: '/api/auth/forgot-password',
        body: { email: newEmail() },
        remoteAddress,
      });
    for (let i = 0; i < 3; i++) expect((await forgot('10.0.0.1')).status).toBe(200);
    expectMessage(await forgot('10.0.0.1'), 429, M.tooManyRequests);
  });

  it('the signed-in endpoints have their own, looser limit', async () => {
    const user = (remoteAddress: string) =>
      steps.api({ method: 'GET', url: '/api/auth/user', remoteAddress });
    for (let i = 0; i < 5; i++) expect((await user('10.0.0.3')).status).toBe(401);
    const limited = await user('10.0.0.3');
    expectMessage(limited, 429, M.tooManyRequests);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('behind a reverse proxy (TRUST_PROXY=true)', async () => {
  const server = await build({ env: { TRUST_PROXY: 'true' }, rateLimits: { sensitive: 2 } });
  const login = failedLogin(accounts(server), '127.0.0.1');

  it("limits each client by the proxy's X-Forwarded-For, not the proxy's own address", async () => {
    for (let i = 0; i < 2; i++) expectMessage(await login('203.0.113.7'), 400, M.badCredentials);
    expectMessage(await login('203.0.113.7'), 429, M.tooManyRequests);
    expectMessage(await login('203.0.113.8'), 400, M.badCredentials);
  });
});

describe('without TRUST_PROXY', async () => {
  const server = await build({ rateLimits: { sensitive: 2 } });
  const login = failedLogin(accounts(server), '198.51.100.1');

  it('ignores X-Forwarded-For, which any client can send', async () => {
    for (let i = 0; i < 2; i++) expectMessage(await login(`10.9.0.${i}`), 400, M.badCredentials);
    expectMessage(await login('10.9.0.9'), 429, M.tooManyRequests);
  });
});
