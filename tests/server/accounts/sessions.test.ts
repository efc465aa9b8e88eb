import { afterAll, describe, expect, it, vi } from 'vitest';
import { SessionLookup } from '../../../src/server/features/accounts/sessions.js';
import { openDatabase } from '../../../src/server/infra/db/open.js';
import { M } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';

describe('the session lookup behind every authenticated request', async () => {
  const server = await build();
  // Another connection to the same database: what another server process would hold.
  const otherProcess = await openDatabase(server.config);
  afterAll(() => otherProcess.close());
  const sqlite = server.database.dialect === 'sqlite';

  const me = (headers: { authorization: string }) =>
    server.app.inject({ method: 'GET', url: '/api/auth/user', headers });

  /** How many times `run` read the sessions table (the mail worker may read others meanwhile). */
  async function sessionReads(run: () => Promise<unknown>) {
    const spy = vi.spyOn(server.database.db, 'selectFrom');
    try {
      await run();
      return spy.mock.calls.filter(([from]) => from === 'sessions').length;
    } finally {
      spy.mockRestore();
    }
  }

  /**
   * On PostgreSQL, waits until the notifications of the writes so far have arrived (the version
   * has stopped moving); SQLite's version is exact at once.
   */
  async function settled() {
    let last: string | null = null;
    for (let i = 0; i < 100; i += 1) {
      const version = server.database.contentVersion();
      if (sqlite || (version !== null && version === last)) return;
      last = version;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the content version never settled');
  }

  /** What another process's change must take at most to show: at once, or 1 s (ADR 009). */
  async function shows(check: () => Promise<boolean>) {
    const deadline = Date.now() + (sqlite ? 0 : 1_000);
    while (!(await check())) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return true;
  }

  it('reads the database once while nothing changes', async () => {
    const user = await signIn(server);
    await settled();
    const lookup = new SessionLookup(server.database, server.clock);
    const reads = await sessionReads(async () => {
      for (let i = 0; i < 3; i += 1) {
        expect((await lookup.find(user.token))?.user.email).toBe(user.email);
      }
    });
    expect(reads).toBe(1);
  });

  it('never keeps unknown tokens: each one is looked up again', async () => {
    const lookup = new SessionLookup(server.database, server.clock);
    const reads = await sessionReads(async () => {
      expect(await lookup.find('not-a-token')).toBeUndefined();
      expect(await lookup.find('not-a-token')).toBeUndefined();
    });
    expect(reads).toBe(2);
  });

  it('refuses a token when another process revokes it (at once on SQLite, within 1 s)', async () => {
    const user = await signIn(server);
    await settled();
    expect((await me(user.headers)).statusCode).toBe(200);
    expect(await sessionReads(() => me(user.headers))).toBe(0); // kept
    await otherProcess.db.deleteFrom('sessions').execute();
    expect(await shows(async () => (await me(user.headers)).statusCode === 401)).toBe(true);
    expect((await me(user.headers)).json()).toEqual({ message: M.unauthorized });
  });

  it("shows another process's change to the user (at once on SQLite, within 1 s)", async () => {
    const user = await signIn(server, 'Before');
    await settled();
    expect((await me(user.headers)).json()).toMatchObject({ user: { name: 'Before' } });
    expect(await sessionReads(() => me(user.headers))).toBe(0); // kept
    await otherProcess.db
      .updateTable('users')
      .set({ name: 'After' })
      .where('email', '=', user.email)
      .execute();
    const renamed = async () => (await me(user.headers)).json().user.name === 'After';
    expect(await shows(renamed)).toBe(true);
  });

  it('keeps sessions within a budget in bytes that counts keys and values', async () => {
    const [first, second] = [await signIn(server), await signIn(server)];
    await settled();
    // Room for one session (token, ids, name and e-mail, two bytes a character) but not two.
    const budget = 1_000;
    const lookup = new SessionLookup(server.database, server.clock, budget);
    await lookup.find(first.token);
    expect(lookup.size).toBeGreaterThan(budget / 2);
    await lookup.find(second.token); // pushes the first out
    expect(lookup.size).toBeLessThanOrEqual(budget);
    const reads = await sessionReads(async () => {
      expect((await lookup.find(first.token))?.user.email).toBe(first.email);
      expect((await lookup.find(first.token))?.user.email).toBe(first.email);
    });
    expect(reads).toBe(1);
  });
});
