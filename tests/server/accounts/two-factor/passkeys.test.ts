import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../../src/server/lib/secrets.js';
import { A } from '../../../../src/shared/account-messages.js';
import { M } from '../../../../src/shared/messages.js';
import { accounts, expectMessage, userRow } from '../../support/accounts.js';
import { build } from '../../support/build.js';

/** A passkey row as registration stores it (its signatures are tested in e2e/passkeys.spec.ts). */
const passkeyRow = (userId: string, id: string) => ({
  id,
  user_id: userId,
  name: 'Phone',
  public_key: 'AQID',
  counter: 0,
  transports: '["internal"]',
  device_type: 'multiDevice',
  backed_up: 1,
  created_at: Date.parse('2026-01-01T00:00:00Z'),
  last_used_at: null,
});

const forgedAssertion = (id: string) => ({
  id,
  rawId: id,
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
  clientExtensionResults: {},
});

describe('passkeys', async () => {
  const server = await build();
  const steps = accounts(server);
  const { api } = steps;

  it('registration options name the site, the account and the passkeys it has', async () => {
    const account = await steps.signedIn({ name: 'Ada Lovelace' });
    const { id } = (await userRow(server, account.email))!;
    await server.database.db.insertInto('passkeys').values(passkeyRow(id, 'a-kept-one')).execute();
    const res = await api({ url: '/api/auth/passkeys/registration/options', token: account.token });
    expect(res.status).toBe(200);
    const { challengeId, options } = JSON.parse(res.text) as {
      challengeId: string;
      options: Record<string, unknown>;
    };
    expect(challengeId).toMatch(/^[\w-]{43}$/);
    expect(options).toMatchObject({
      rp: { name: 'Stockroom', id: 'stockroom.test' },
      user: { name: account.email, displayName: 'Ada Lovelace' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      excludeCredentials: [{ id: 'a-kept-one', type: 'public-key', transports: ['internal'] }],
    });
  });

  it("another account's passkey is a 404 to rename or remove, and absent from its list", async () => {
    const owner = await steps.signedIn();
    const stranger = await steps.signedIn();
    const { id } = (await userRow(server, owner.email))!;
    await server.database.db.insertInto('passkeys').values(passkeyRow(id, 'owners-key')).execute();
    const url = '/api/auth/passkeys/owners-key';
    expectMessage(
      await api({ method: 'PATCH', url, token: stranger.token, body: { name: 'Mine now' } }),
      404,
      A.passkeyNotFound,
    );
    expectMessage(
      await api({
        method: 'DELETE',
        url,
        token: stranger.token,
        body: { password: stranger.password },
      }),
      404,
      A.passkeyNotFound,
    );
    const theirs = await api({ method: 'GET', url: '/api/auth/passkeys', token: stranger.token });
    expect(JSON.parse(theirs.text)).toEqual({ passkeys: [] });
    const own = await api({ method: 'GET', url: '/api/auth/passkeys', token: owner.token });
    expect(JSON.parse(own.text)).toEqual({
      passkeys: [
        {
          id: 'owners-key',
          name: 'Phone',
          createdAt: '2026-01-01T00:00:00.000Z',
          lastUsedAt: null,
          synced: true,
        },
      ],
    });
    const renamed = await api({
      method: 'PATCH',
      url,
      token: owner.token,
      body: { name: ' Work phone ' },
    });
    expect(JSON.parse(renamed.text)).toMatchObject({
      message: A.passkeyRenamed,
      passkey: { name: 'Work phone' },
    });
    expectMessage(
      await api({
        method: 'DELETE',
        url,
        token: owner.token,
        body: { password: 'wrong-Password-1' },
      }),
      400,
      A.passwordWrong,
    );
    expectMessage(
      await api({ method: 'DELETE', url, token: owner.token, body: { password: owner.password } }),
      200,
      A.passkeyRemoved,
    );
    // The owner hears of it, as of every change to how the account signs in.
    await steps.inbox.fetch();
    expect(steps.inbox.lastMailTo(owner.email)).toMatchObject({
      subject: 'A passkey was removed from your Stockroom account',
    });
    expect(steps.inbox.lastMailTo(owner.email).text).toContain(
      'The passkey "Work phone" can no longer log in to your account.',
    );
  });

  it('gives the options to sign in with a passkey alone to a request without a body', async () => {
    for (const headers of [{}, { 'content-type': 'application/json' }]) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/auth/passkeys/login/options',
        headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ challengeId: expect.any(String) });
    }
  });

  it('a forged signature signs nobody in, and 5 of them end the sign-in', async () => {
    const account = await steps.signedIn();
    const { id } = (await userRow(server, account.email))!;
    await server.database.db.insertInto('passkeys').values(passkeyRow(id, 'target-key')).execute();
    const options = await api({ url: '/api/auth/passkeys/login/options', body: {} });
    const { challengeId, options: asked } = JSON.parse(options.text) as {
      challengeId: string;
      options: Record<string, unknown>;
    };
    expect(asked).toMatchObject({ rpId: 'stockroom.test', userVerification: 'required' });
    expect(asked.allowCredentials ?? []).toEqual([]);
    for (let i = 0; i < 5; i += 1) {
      expectMessage(
        await api({
          url: '/api/auth/passkeys/login',
          body: { challengeId, assertion: forgedAssertion('target-key') },
        }),
        400,
        A.passkeyRefused,
      );
    }
    const left = await server.database.db
      .selectFrom('sign_in_challenges')
      .select('id_hash')
      .where('id_hash', '=', sha256(challengeId))
      .execute();
    expect(left).toEqual([]);
  });

  it('passkey sign-in options for a sign-in waiting for its second step need a live one', async () => {
    expectMessage(
      await api({ url: '/api/auth/passkeys/login/options', body: { challengeId: 'x'.repeat(43) } }),
      400,
      A.signInExpired,
    );
  });

  it('the managing routes need a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/passkeys'],
      ['POST', '/api/auth/passkeys/registration/options'],
      ['POST', '/api/auth/passkeys/registration'],
      ['PATCH', '/api/auth/passkeys/some-id'],
      ['DELETE', '/api/auth/passkeys/some-id'],
    ] as const) {
      expectMessage(await api({ method, url, body: {} }), 401, M.unauthorized);
    }
  });
});

describe('passkeys on a server named by an IP address', async () => {
  const server = await build({ env: { PUBLIC_URL: 'http://127.0.0.1:3000' } });
  const steps = accounts(server);

  it('are refused with a 409 that says why: browsers take no IP address for them', async () => {
    const account = await steps.signedIn();
    expectMessage(
      await steps.api({ url: '/api/auth/passkeys/registration/options', token: account.token }),
      409,
      A.passkeysNeedDomain,
    );
    expectMessage(
      await steps.api({ url: '/api/auth/passkeys/login/options', body: {} }),
      409,
      A.passkeysNeedDomain,
    );
  });
});
