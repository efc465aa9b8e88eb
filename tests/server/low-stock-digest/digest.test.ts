import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { LocalInbox } from '../support/inbox.js';
import { adjustStock, createProduct } from '../support/products.js';
import {
  addMember,
  api,
  createIn,
  member,
  newCatalogue,
  productOf,
} from '../catalogues/support.js';

const HOUR = 3_600_000;

describe('the daily low-stock digest', async () => {
  const server = await build();
  const inbox = new LocalInbox(server);
  const digests = server.app.lowStockDigests;
  // The test clock starts at midnight UTC; digests go from 07:00.
  const owner = await member(server, 'Owner');
  const optIn = async (user: typeof owner, on = true) => {
    const res = await api(server, user, 'PATCH', '/api/auth/preferences', { lowStockDigest: on });
    expect(res.statusCode, res.body).toBe(200);
  };
  const mailsTo = async (email: string) => {
    await inbox.fetch();
    // Only digests: signing up mailed a code already.
    return inbox.mailsTo(email).filter((mail) => mail.subject.startsWith('Low stock:'));
  };

  it('keeps the choice as a preference of its own, false by default', async () => {
    const user = await member(server);
    const read = async () => {
      const res = await api(server, user, 'GET', '/api/auth/preferences');
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await read()).toEqual({ preferences: { lowStockDigest: false } });
    const saved = await api(server, user, 'PATCH', '/api/auth/preferences', {
      lowStockDigest: true,
    });
    expect(saved.json()).toEqual({
      message: 'Preferences saved',
      preferences: { lowStockDigest: true },
    });
    expect(await read()).toEqual({ preferences: { lowStockDigest: true } });
    // The current user's answer stays the spec's.
    const me = await api(server, user, 'GET', '/api/auth/user');
    expect(me.json()).toEqual({ user: { id: user.id, name: user.name, email: user.email } });

    const bad = await api(server, user, 'PATCH', '/api/auth/preferences', {
      lowStockDigest: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toEqual({
      path: 'lowStockDigest',
      message: 'lowStockDigest must be true or false',
    });
    // Unchanged by an empty body.
    expect((await api(server, user, 'PATCH', '/api/auth/preferences', {})).json()).toMatchObject({
      preferences: { lowStockDigest: true },
    });
    await optIn(user, false);
    expect(await read()).toEqual({ preferences: { lowStockDigest: false } });
    const other = await member(server);
    expect(await api(server, other, 'GET', '/api/auth/preferences').then((r) => r.json())).toEqual({
      preferences: { lowStockDigest: false },
    });
  });

  it('sends, once a day from the hour, the products that crossed since the last digest', async () => {
    await optIn(owner);
    const shop = await newCatalogue(server, owner, 'Shop');
    const lamp = await createProduct(server, owner, { name: 'Lamp', stock: '20' });
    const rug = productOf(await createIn(server, owner, shop.id, { name: 'Rug', stock: '50' }));
    await createProduct(server, owner, { name: 'Plenty', stock: '100' });
    await adjustStock(server, owner, lamp.id, { delta: -15 }); // 5, point 10
    await api(server, owner, 'POST', `/api/catalogues/${shop.id}/products/${rug.id}/stock`, {
      delta: -45,
    });

    // Before the hour: nothing.
    server.clock.advance(6 * HOUR);
    expect(await digests.run()).toBe(0);
    server.clock.advance(HOUR + 60_000);
    expect(await digests.run()).toBe(1);
    const [mail, ...others] = await mailsTo(owner.email);
    expect(others).toEqual([]);
    expect(mail!.subject, mail!.text).toBe('Low stock: 2 products to reorder');
    expect(mail!.text).toContain("Lamp: stock 5, reorder point 10, in Owner's catalogue");
    expect(mail!.text).toContain(`http://stockroom.test/details/product/${lamp.id}`);
    expect(mail!.text).toContain('Rug: stock 5, reorder point 10, in Shop');
    expect(mail!.text).toContain(`http://stockroom.test/catalogues/${shop.id}/products/${rug.id}`);
    expect(mail!.text).not.toContain('Plenty');

    // The same day: never again, however often the job runs, even with a new crossing.
    server.clock.advance(60_000);
    const glue = await createProduct(server, owner, { name: 'Glue', stock: '1' });
    expect(await digests.run()).toBe(0);
    server.clock.advance(HOUR);
    expect(await digests.run()).toBe(0);
    expect(await mailsTo(owner.email)).toHaveLength(1);

    // The next day: only what crossed since.
    server.clock.advance(24 * HOUR);
    expect(await digests.run()).toBe(1);
    const next = (await mailsTo(owner.email)).at(-1)!;
    expect(next.subject).toBe('Low stock: 1 product to reorder');
    expect(next.text).toContain('Glue: stock 1');
    expect(next.text).not.toContain('Lamp');

    // A day with no crossing sends nothing; a product restocked meanwhile is not listed.
    server.clock.advance(24 * HOUR);
    expect(await digests.run()).toBe(0);
    await adjustStock(server, owner, lamp.id, { delta: 100 });
    await adjustStock(server, owner, lamp.id, { delta: -104 }); // 1: crossed again
    await adjustStock(server, owner, glue.id, { delta: 100 });
    await adjustStock(server, owner, glue.id, { delta: -50 }); // 51: restocked, not to reorder
    server.clock.advance(24 * HOUR);
    expect(await digests.run()).toBe(1);
    const third = (await mailsTo(owner.email)).at(-1)!;
    expect(third.subject).toBe('Low stock: 1 product to reorder');
    expect(third.text).toContain('Lamp: stock 1');
  });

  it('sends one digest when several runs race, and none to who did not opt in', async () => {
    const user = await member(server);
    const quiet = await member(server);
    await optIn(user);
    const shared = await newCatalogue(server, user, 'Shared');
    await addMember(server, shared.id, quiet, 'editor');
    await createIn(server, user, shared.id, { name: 'Pin', stock: '2' });
    server.clock.advance(24 * HOUR);
    const runs = await Promise.all([digests.run(), digests.run(), digests.run()]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await mailsTo(user.email)).toHaveLength(1);
    expect(await mailsTo(quiet.email)).toHaveLength(0);
    const claims = await server.database.db
      .selectFrom('low_stock_digests')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(claims).toHaveLength(1);
  });
});
