import { describe, expect, it } from 'vitest';
import { M } from '../../../src/shared/messages.js';
import { LIVE_STREAMS_PER_USER } from '../../../src/shared/schemas/live-events.js';
import { LEASE_MS, UserLeases } from '../../../src/server/infra/leases/user-leases.js';
import { anotherInstance, build } from '../support/build.js';
import { signIn, userRow } from '../support/accounts.js';
import { eventStreamsOn } from '../../support/event-stream.js';

const HOST = '127.0.0.1';

/**
 * A user's streams count on every instance together: two instances on one database each hold
 * some, and the one past the bound is refused wherever it arrives.
 */
describe("one user's event streams over two instances", async () => {
  const server = await build();
  const other = await anotherInstance(server);
  const onFirst = eventStreamsOn(await server.app.listen({ port: 0, host: HOST }));
  const onSecond = eventStreamsOn(await other.listen({ port: 0, host: HOST }));
  const half = LIVE_STREAMS_PER_USER / 2;

  it(`refuses stream ${LIVE_STREAMS_PER_USER + 1} on either instance; an ended one frees its place`, async () => {
    const user = await signIn(server);
    const open = await Promise.all([
      ...Array.from({ length: half }, () => onFirst(user.token)),
      ...Array.from({ length: LIVE_STREAMS_PER_USER - half }, () => onSecond(user.token)),
    ]);
    expect(open.map((stream) => stream.status)).toEqual(open.map(() => 200));

    const refused = await Promise.all([onFirst(user.token), onSecond(user.token)]);
    expect(refused.map((stream) => stream.status)).toEqual([429, 429]);
    for (const stream of refused) {
      expect(stream.headers['retry-after']).toBe('5');
      expect(JSON.parse(stream.text())).toEqual({ message: M.liveStreamsPerUser });
    }

    // One ends on the first instance: the second takes one more.
    open[0]!.close();
    await expect
      .poll(async () => (await onSecond(user.token)).status, { timeout: 2_000, interval: 50 })
      .toBe(200);
  });

  it("stops counting a killed instance's streams once their leases run out", async () => {
    const user = await signIn(server);
    const { id } = (await userRow(server, user.email))!;
    // An instance that took the user's every stream, then died: it neither ends nor renews them.
    const killed = new UserLeases({
      db: server.database.db,
      dialect: server.database.dialect,
      clock: server.clock,
      log: server.app.log,
    });
    for (let i = 0; i < LIVE_STREAMS_PER_USER; i += 1) {
      expect(await killed.take('live-stream', id, LIVE_STREAMS_PER_USER)).toBeDefined();
    }
    expect((await onFirst(user.token)).status).toBe(429);
    server.clock.advance(LEASE_MS);
    expect((await onFirst(user.token)).status).toBe(200);
  });
});
