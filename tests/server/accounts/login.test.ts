import { describe, expect, it } from 'vitest';
import { logIn } from '../../../src/server/features/accounts/login.js';
import { twoFactorDeps } from '../../../src/server/features/accounts/two-factor/deps.js';
import { accounts, newEmail, PASSWORD } from '../support/accounts.js';
import { build, type TestServer } from '../support/build.js';

const outboxRows = (server: TestServer) =>
  server.database.db.selectFrom('outbox').select(['recipient', 'kind']).execute();

describe('the login service', async () => {
  const server = await build();
  const steps = accounts(server);
  const deps = {
    db: server.database.db,
    clock: server.clock,
    outbox: server.app.outbox,
    twoFactor: twoFactorDeps(server.app),
  };
  const confirmed = await steps.signedIn();
  const unconfirmed = await steps.signUp();
  await steps.inbox.fetch();

  it('a confirmed account with its password: a token that signs in', async () => {
    const result = await logIn(deps, confirmed.email, PASSWORD);
    expect(result).toEqual({ ok: true, token: expect.any(String) });
    if (result.ok === true) expect((await steps.user(result.token)).status).toBe(200);
  });

  it('an unknown e-mail or a wrong password: bad credentials, and nothing written', async () => {
    const before = await outboxRows(server);
    expect(await logIn(deps, newEmail('nobody'), PASSWORD)).toEqual({
      ok: false,
      reason: 'bad-credentials',
    });
    expect(await logIn(deps, confirmed.email, 'wrong-Password-1')).toEqual({
      ok: false,
      reason: 'bad-credentials',
    });
    expect(await logIn(deps, unconfirmed.email, 'wrong-Password-1')).toEqual({
      ok: false,
      reason: 'bad-credentials',
    });
    expect(await outboxRows(server)).toEqual(before);
  });

  it('an unconfirmed account with its password: unconfirmed, and one confirmation code requested', async () => {
    const before = await outboxRows(server);
    expect(await logIn(deps, unconfirmed.email, PASSWORD)).toEqual({
      ok: false,
      reason: 'unconfirmed',
    });
    expect(await outboxRows(server)).toEqual([
      ...before,
      { recipient: unconfirmed.email, kind: 'confirm-code' },
    ]);
  });
});
