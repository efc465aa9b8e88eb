import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { multipart } from '../support/images.js';
import { sendBody, validFields } from '../support/products.js';
import { eventStreamsOn, type EventStream } from '../../support/event-stream.js';
import { call, createCatalogue, join } from '../invitations/support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const kind = (wanted: string) => (event: { kind: string }) => event.kind === wanted;

describe('GET /api/events follows memberships', async () => {
  const server = await build();
  const baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const owner = await signIn(server, 'Owner');
  const open = eventStreamsOn(baseUrl);
  const userIdOf = async (token: string) =>
    (
      (
        await server.app.inject({
          url: '/api/auth/user',
          headers: { authorization: `Bearer ${token}` },
        })
      ).json() as {
        user: { id: string };
      }
    ).user.id;
  const createIn = async (catalogueId: string, name: string) => {
    const res = await sendBody(
      server,
      owner,
      'POST',
      `/api/catalogues/${catalogueId}/products`,
      await multipart({ ...validFields, name }),
    );
    expect(res.statusCode).toBe(201);
  };
  const mentions = (stream: EventStream, text: string, from = 0) =>
    JSON.stringify(stream.events.slice(from)).includes(text);

  it("a new member's open stream carries the catalogue once they accept; a removed one's ends", async () => {
    const catalogue = await createCatalogue(server, owner, 'Streamed');
    const member = await signIn(server, 'Member');
    const memberId = await userIdOf(member.token);
    const mine = await open(owner.token);
    const theirs = await open(member.token);

    await createIn(catalogue.id, 'Before joining');
    await mine.next((event) => JSON.stringify(event.data).includes('Before joining'));
    await sleep(200);
    expect(mentions(theirs, 'Before joining')).toBe(false);

    await join(server, owner, catalogue.id, member);
    const joined = await theirs.next(kind('catalogue.updated'));
    expect(joined.data).toEqual({ catalogueId: catalogue.id });
    expect(await mine.next(kind('catalogue.updated'))).toMatchObject({
      data: { catalogueId: catalogue.id },
    });
    // They hear of their own joining once.
    await sleep(200);
    expect(theirs.events.filter(kind('catalogue.updated'))).toHaveLength(1);

    await createIn(catalogue.id, 'After joining');
    const created = await theirs.next(kind('product.created'));
    expect(created.data).toMatchObject({
      catalogueId: catalogue.id,
      product: { name: 'After joining' },
    });

    const from = mine.events.length;
    const removed = await call(
      server,
      owner,
      'DELETE',
      `/api/catalogues/${catalogue.id}/members/${memberId}`,
    );
    expect(removed).toMatchObject({ status: 200, body: { message: 'Member removed' } });
    const gone = await theirs.next(kind('catalogue.removed'));
    expect(gone.data).toEqual({ catalogueId: catalogue.id });
    await theirs.ended;
    expect(await mine.next(kind('catalogue.updated'), 1_000, from)).toMatchObject({
      data: { catalogueId: catalogue.id },
    });
    expect(mine.events.slice(from).some(kind('catalogue.removed'))).toBe(false);
    const refused = await call(server, member, 'GET', `/api/catalogues/${catalogue.id}/products`);
    expect(refused).toMatchObject({ status: 404, body: { message: 'Catalogue not found' } });

    // A reconnect from before the removal replays only the catalogues they belong to now: the
    // removal notice, not the catalogue's products.
    await createIn(catalogue.id, 'After removal');
    const again = await open(member.token, { 'last-event-id': joined.id! });
    await again.next(kind('catalogue.removed'));
    await again.ended;
    expect(mentions(again, 'After joining')).toBe(false);
    expect(mentions(again, 'After removal')).toBe(false);

    // A fresh stream carries their own catalogue, not that one.
    const fresh = await open(member.token);
    await createIn(catalogue.id, 'Still not theirs');
    await sleep(300);
    expect(fresh.events).toEqual([]);
  });

  it('a member who leaves gets catalogue.removed, and every member when it is deleted', async () => {
    const catalogue = await createCatalogue(server, owner, 'Short-lived');
    const leaver = await signIn(server, 'Leaver');
    const stayer = await signIn(server, 'Stayer');
    await join(server, owner, catalogue.id, leaver);
    await join(server, owner, catalogue.id, stayer);
    const leaving = await open(leaver.token);
    const staying = await open(stayer.token);
    const owning = await open(owner.token);

    const left = await call(
      server,
      leaver,
      'DELETE',
      `/api/catalogues/${catalogue.id}/members/${await userIdOf(leaver.token)}`,
    );
    expect(left).toMatchObject({ status: 200, body: { message: 'You left the catalogue' } });
    expect((await leaving.next(kind('catalogue.removed'))).data).toEqual({
      catalogueId: catalogue.id,
    });
    await staying.next(kind('catalogue.updated'));

    const deleted = await call(server, owner, 'DELETE', `/api/catalogues/${catalogue.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { message: 'Catalogue deleted' } });
    for (const stream of [staying, owning]) {
      expect((await stream.next(kind('catalogue.removed'))).data).toEqual({
        catalogueId: catalogue.id,
      });
      await stream.ended;
    }
  });

  it("an account deleted tells its catalogues' members: its team's list changes, its own is gone", async () => {
    const team = await createCatalogue(server, owner, 'Team of the departed');
    const departing = await signIn(server, 'Departing');
    const departingId = await userIdOf(departing.token);
    await join(server, owner, team.id, departing);
    // Someone the departing user had invited into their personal catalogue.
    const guest = await signIn(server, 'Guest');
    await join(server, departing, departingId, guest);
    const owning = await open(owner.token);
    const guesting = await open(guest.token);

    const deleted = await call(server, departing, 'DELETE', '/api/auth/user', {
      password: departing.password,
    });
    expect(deleted.status).toBe(200);
    expect((await owning.next(kind('catalogue.updated'))).data).toEqual({ catalogueId: team.id });
    expect((await guesting.next(kind('catalogue.removed'))).data).toEqual({
      catalogueId: departingId,
    });
    await guesting.ended;
  });
});
