import { afterAll, describe, expect, it, vi } from 'vitest';
import { SessionLookup } from '../../../src/server/accounts/sessions.js';
import { openDatabase } from '../../../src/server/db/index.js';
import { M } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn } from '../support/session.js';

describe('the session lookup behind every authenticated request', async () => {
  const server = await build();
  // Another connection to the same database: what another server process would hold.
  const otherProcess = await openDatabase(server.config);
  afterAll(() => otherProcess.close());
  const sqlite = server.database.dialect === 'sqlite';

  const me = (headers: { authorization: string }) =>
    server.app.inject({ method: 'GET', url: '/api/auth/user', headers });

  it('reads the database once while nothing changes (SQLite), every time on PostgreSQL', async () => {
    const user = await signIn(server);
    const lookup = new SessionLookup(server.database, server.clock);
    const reads = vi.spyOn(server.database.db, 'selectFrom');
    for (let i = 0; i < 3; i += 1) {
      expect((await lookup.find(user.token))?.user.email).toBe(user.email);
    }
    expect(reads).toHaveBeenCalledTimes(sqlite ? 1 : 3);
    reads.mockRestore();
  });

  it('never keeps unknown tokens: each one is looked up again', async () => {
    const lookup = new SessionLookup(server.database, server.clock);
    const reads = vi.spyOn(server.database.db, 'selectFrom');
    expect(await lookup.find('not-a-token')).toBeUndefined();
    expect(await lookup.find('not-a-token')).toBeUndefined();
    expect(reads).toHaveBeenCalledTimes(2);
    reads.mockRestore();
  });

  it('refuses a token at once when another process revokes it', async () => {
    const user = await signIn(server);
    expect((await me(user.headers)).statusCode).toBe(200);
    await otherProcess.db.deleteFrom('sessions').execute();
    const res = await me(user.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: M.unauthorized });
  });

  it("shows another process's change to the user in the next request", async () => {
    const user = await signIn(server, 'Before');
    expect((await me(user.headers)).json()).toMatchObject({ user: { name: 'Before' } });
    await otherProcess.db
      .updateTable('users')
      .set({ name: 'After' })
      .where('email', '=', user.email)
      .execute();
    expect((await me(user.headers)).json()).toMatchObject({ user: { name: 'After' } });
  });

  it('keeps a bounded number of sessions', async () => {
    const [first, second] = [await signIn(server), await signIn(server)];
    const lookup = new SessionLookup(server.database, server.clock, 1);
    await lookup.find(first.token);
    await lookup.find(second.token); // pushes the first out
    const reads = vi.spyOn(server.database.db, 'selectFrom');
    expect((await lookup.find(first.token))?.user.email).toBe(first.email);
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
  });
});
