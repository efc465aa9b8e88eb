import { describe, it } from 'vitest';
import { M } from '../../../src/shared/messages.js';
import { accounts, expectMessage, newEmail, PASSWORD } from '../support/accounts.js';
import { build } from '../support/build.js';

/**
 * A wrong-password login that reaches the server from `socket` with this X-Forwarded-For: what a
 * client gets through proxies, each of which appends the address it saw.
 */
const failedLogin =
  (steps: ReturnType<typeof accounts>) => (socket: string, forwardedFor: string) =>
    steps.api({
      url: '/api/auth/login',
      body: { email: newEmail('proxied'), password: PASSWORD },
      remoteAddress: socket,
      headers: { 'x-forwarded-for': forwardedFor },
    });

/** A spoofed address per attempt: what a client would send to get a fresh rate-limit key. */
const spoofed = (i: number) => `198.51.100.${i + 1}`;

describe('TRUST_PROXY=1: one proxy in front', async () => {
  const server = await build({ env: { TRUST_PROXY: '1' }, rateLimits: { sensitive: 3 } });
  const login = failedLogin(accounts(server));

  it('a client cannot escape the rate limit by sending its own X-Forwarded-For', async () => {
    // The proxy appends the client's real address after whatever the client sent.
    for (let i = 0; i < 3; i++) {
      expectMessage(await login('10.0.0.5', `${spoofed(i)}, 203.0.113.7`), 400, M.badCredentials);
    }
    expectMessage(await login('10.0.0.5', `${spoofed(9)}, 203.0.113.7`), 429, M.tooManyRequests);
    expectMessage(await login('10.0.0.5', '203.0.113.7'), 429, M.tooManyRequests);
    // Another client behind the same proxy has its own budget.
    expectMessage(await login('10.0.0.5', `${spoofed(0)}, 203.0.113.8`), 400, M.badCredentials);
  });
});

describe('TRUST_PROXY=true means one hop, not every hop', async () => {
  const server = await build({ env: { TRUST_PROXY: 'true' }, rateLimits: { sensitive: 2 } });
  const login = failedLogin(accounts(server));

  it('spoofed prefixes share the real client’s budget', async () => {
    for (let i = 0; i < 2; i++) {
      expectMessage(await login('10.0.0.5', `${spoofed(i)}, 203.0.113.20`), 400, M.badCredentials);
    }
    expectMessage(await login('10.0.0.5', `${spoofed(5)}, 203.0.113.20`), 429, M.tooManyRequests);
  });
});

describe('TRUST_PROXY as a list of proxy addresses and CIDRs', async () => {
  const server = await build({
    env: { TRUST_PROXY: '10.0.0.0/8, 192.0.2.10' },
    rateLimits: { sensitive: 2 },
  });
  const login = failedLogin(accounts(server));

  it('skips every trusted proxy and stops at the first address it does not trust', async () => {
    // Client 203.0.113.30 → proxy 192.0.2.10 → proxy 10.1.2.3 → server.
    const chain = (prefix: string) => `${prefix}203.0.113.30, 192.0.2.10`;
    for (let i = 0; i < 2; i++) {
      expectMessage(await login('10.1.2.3', chain(`${spoofed(i)}, `)), 400, M.badCredentials);
    }
    expectMessage(await login('10.1.2.3', chain(`${spoofed(7)}, `)), 429, M.tooManyRequests);
    expectMessage(await login('10.1.2.3', chain('')), 429, M.tooManyRequests);
  });

  it('a connection from outside the list is the client itself, whatever it forwards', async () => {
    for (let i = 0; i < 2; i++) {
      expectMessage(await login('203.0.113.40', spoofed(i)), 400, M.badCredentials);
    }
    expectMessage(await login('203.0.113.40', spoofed(8)), 429, M.tooManyRequests);
  });
});
