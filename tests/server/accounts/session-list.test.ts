import { describe, expect, it } from 'vitest';
import { A } from '../../../src/shared/account-messages.js';
import { M } from '../../../src/shared/messages.js';
import type { DeviceSession } from '../../../src/shared/schemas/sessions.js';
import { anotherInstance, build } from '../support/build.js';
import { accounts, expectMessage, injectClient, PASSWORD, signIn } from '../support/accounts.js';
import { addMember, member, newCatalogue } from '../catalogues/support.js';
import { openEventStream } from '../../support/event-stream.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('the sessions of an account', async () => {
  const server = await build();
  // Another instance on the same database: a request there must see an ending made here.
  const other = await anotherInstance(server);
  const baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const here = injectClient(server.app);
  const there = injectClient(other);
  const steps = accounts(server);

  /** Logs in from a given browser and address. */
  async function loginFrom(email: string, userAgent: string, remoteAddress: string) {
    const res = await here({
      url: '/api/auth/login',
      body: { email, password: PASSWORD },
      headers: { 'user-agent': userAgent },
      remoteAddress,
    });
    expectMessage(res, 200, M.loginDone);
    return res.body.token!;
  }

  const list = async (token: string) => {
    const res = await here({ method: 'GET', url: '/api/auth/sessions', token });
    expect(res.status).toBe(200);
    return (res.body as unknown as { sessions: DeviceSession[] }).sessions;
  };
  const works = async (token: string, api = here) =>
    (await api({ method: 'GET', url: '/api/auth/user', token })).status === 200;

  it('lists each device with its place and last use, this one marked', async () => {
    const user = await steps.signedIn();
    server.clock.advance(60_000);
    const phone = await loginFrom(user.email, IPHONE, '81.2.69.160');
    server.clock.advance(10 * 60_000);
    const laptop = await loginFrom(user.email, FIREFOX, '10.0.0.7');

    const sessions = await list(laptop);
    expect(sessions).toHaveLength(3);
    // The newest use first: this device, then the phone, then the first login.
    const [mine, iphone] = sessions;
    expect(mine).toMatchObject({
      current: true,
      device: 'Firefox 128 on Linux',
      place: 'Local network',
      lastSeenAt: new Date(server.clock.now()).toISOString(),
    });
    expect(iphone).toMatchObject({ current: false, device: 'Safari 17 on iOS (phone)' });
    expect(iphone!.place).toBe('United Kingdom');
    expect(sessions.filter((session) => session.current)).toHaveLength(1);

    // Using a session moves its last use, a few minutes at a time (not a write per request).
    server.clock.advance(6 * 60_000);
    expect(await works(phone)).toBe(true);
    const phoneNow = (await list(laptop)).find((session) => session.id === iphone!.id);
    expect(phoneNow?.lastSeenAt).toBe(new Date(server.clock.now()).toISOString());
  });

  it('ends one session, on every instance, and the others stay', async () => {
    const user = await steps.signedIn();
    const second = await steps.login(user.email, PASSWORD);
    expect(await works(second, there)).toBe(true);
    const target = (await list(user.token)).find((session) => !session.current)!;

    const res = await here({
      method: 'DELETE',
      url: `/api/auth/sessions/${target.id}`,
      token: user.token,
    });
    expectMessage(res, 200, A.sessionEnded);
    expect(await works(second)).toBe(false);
    const started = performance.now();
    while (await works(second, there)) {
      expect(performance.now() - started).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await works(user.token, there)).toBe(true);
    expect((await list(user.token)).map((session) => session.id)).not.toContain(target.id);

    const again = await here({
      method: 'DELETE',
      url: `/api/auth/sessions/${target.id}`,
      token: user.token,
    });
    expectMessage(again, 404, A.sessionNotFound);
  });

  it('ends every other session and keeps this one', async () => {
    const user = await steps.signedIn();
    const others = [
      await steps.login(user.email, PASSWORD),
      await steps.login(user.email, PASSWORD),
    ];
    const res = await there({ url: '/api/auth/sessions/revoke-others', token: user.token });
    expectMessage(res, 200, A.otherSessionsEnded);
    for (const token of others) expect(await works(token)).toBe(false);
    expect(await works(user.token)).toBe(true);
    expect(await list(user.token)).toHaveLength(1);
  });

  it("never reaches another account's session, whatever its role: 404", async () => {
    const owner = await member(server);
    const victim = await member(server);
    const catalogue = await newCatalogue(server, owner);
    await addMember(server, catalogue.id, victim, 'viewer');
    const [victimSession] = await list(victim.token);

    for (const path of [
      `/api/auth/sessions/${victimSession!.id}`,
      `/api/catalogues/${catalogue.id}/sessions/${victimSession!.id}`,
    ]) {
      const res = await here({ method: 'DELETE', url: path, token: owner.token });
      expect(res.status).toBe(404);
    }
    expect((await list(owner.token)).map((session) => session.id)).not.toContain(victimSession!.id);
    expect(await works(victim.token)).toBe(true);
    const bad = await here({ method: 'DELETE', url: '/api/auth/sessions/x', token: owner.token });
    expectMessage(bad, 404, A.sessionNotFound);
    expect((await here({ method: 'GET', url: '/api/auth/sessions' })).status).toBe(401);
  });

  it("closes a live stream within 1 s of its session's end on another instance", async () => {
    const user = await signIn(server);
    const second = await steps.login(user.email, PASSWORD);
    const stream = await openEventStream(baseUrl, second);
    const staying = await openEventStream(baseUrl, user.token);
    expect(stream.status).toBe(200);
    const res = await there({ url: '/api/auth/sessions/revoke-others', token: user.token });
    expect(res.status).toBe(200);
    const started = performance.now();
    await stream.ended;
    expect(performance.now() - started).toBeLessThan(1_000);
    let stayingEnded = false;
    void staying.ended.then(() => (stayingEnded = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stayingEnded).toBe(false);
    staying.close();
  });
});
