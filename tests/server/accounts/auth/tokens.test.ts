import { describe, expect, it } from 'vitest';
import { TOKEN_TTL_DAYS } from '../../../../src/shared/constants.js';
import { M } from '../../../../src/shared/messages.js';
import { accounts, expectMessage } from '../../support/accounts.js';
import { build } from '../../support/build.js';

const TOKEN_TTL_MS = TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000;

describe('GET /api/auth/user and POST /api/auth/logout', async () => {
  const server = await build();
  const steps = accounts(server);

  it('GET /user returns {user: {id, name, email}} and nothing else', async () => {
    const account = await steps.signedIn({ name: 'Katherine Johnson' });
    const res = await steps.user(account.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: {
        id: expect.any(String),
        name: 'Katherine Johnson',
        email: account.email,
      },
    });
    expect(Object.keys(res.body.user!).sort()).toEqual(['email', 'id', 'name']);
    expect(res.text).not.toMatch(/argon2|password|confirmed/i);
  });

  it('accepts the scheme name in any case (RFC 7235)', async () => {
    const account = await steps.signedIn();
    const res = await steps.api({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `bearer ${account.token}` },
    });
    expect(res.status).toBe(200);
  });

  it('GET /user without a token is a 401 with a message', async () => {
    expectMessage(await steps.api({ method: 'GET', url: '/api/auth/user' }), 401, M.unauthorized);
  });

  it('logout revokes only the token it was called with', async () => {
    const account = await steps.signedIn();
    const other = await steps.login(account.email, account.password);
    const res = await steps.logout(account.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: M.loggedOut });
    expectMessage(await steps.user(account.token), 401, M.unauthorized);
    expectMessage(await steps.logout(account.token), 401, M.unauthorized);
    expect((await steps.user(other)).status).toBe(200);
  });

  it('logout without a token is a 401', async () => {
    expectMessage(await steps.api({ url: '/api/auth/logout' }), 401, M.unauthorized);
  });

  it('a token works for 7 days and is a 401 from then on', async () => {
    const { token } = await steps.signedIn();
    server.clock.advance(TOKEN_TTL_MS - 1);
    expect((await steps.user(token)).status).toBe(200);
    server.clock.advance(2);
    expectMessage(await steps.user(token), 401, M.unauthorized);
    expectMessage(await steps.logout(token), 401, M.unauthorized);
  });
});
