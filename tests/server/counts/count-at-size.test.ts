import { describe, expect, it } from 'vitest';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import type { Count } from '../../../src/shared/schemas/counts/counts.js';
import { build } from '../support/build.js';
import { api, member } from '../catalogues/support.js';

const server = await build();
const LINES = 10_000;

describe('a count of 10,000 lines', () => {
  it('posts in one transaction: every difference a movement, the totals kept', async () => {
    const user = await member(server);
    await bulkLoad(
      server.database,
      user.id,
      Array.from({ length: LINES }, (_, i) => ({
        name: `Counted product ${String(i).padStart(5, '0')}`,
        description: 'Seeded for a count',
        priceCents: 100,
        stock: 10,
        image: null,
        createdAt: server.clock.now(),
      })),
      'create',
    );
    const started = await api(server, user, 'POST', '/api/counts', {
      scope: { kind: 'catalogue' },
    });
    const { count } = started.json() as { count: Count };
    const products = await server.database.db
      .selectFrom('products')
      .select('id')
      .where('catalogue_id', '=', user.id)
      .execute();
    // Lines written as counting them one by one would: each found one more, or one fewer.
    const rows = products.map(({ id }, i) => ({
      count_id: count.id,
      product_id: id,
      location_id: user.id,
      catalogue_id: user.id,
      expected: 10,
      counted: i % 2 === 0 ? 11 : 9,
      counted_by: user.id,
      counted_at: server.clock.now(),
    }));
    for (let i = 0; i < rows.length; i += 1000) {
      await server.database.db
        .insertInto('count_lines')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
    await server.database.db
      .updateTable('counts')
      .set({ lines: LINES })
      .where('id', '=', count.id)
      .execute();

    const began = performance.now();
    const posted = await api(server, user, 'POST', `/api/counts/${count.id}/post`, {});
    const took = performance.now() - began;
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ movements: LINES });
    // A few statements per thousand lines, not ten thousand round trips (a loaded machine allows
    // for more than it takes alone).
    expect(took).toBeLessThan(20_000);
    const moved = await server.database.db
      .selectFrom('stock_movements')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('count_id', '=', count.id)
      .executeTakeFirstOrThrow();
    expect(Number(moved.n)).toBe(LINES);
    const totals = await server.database.db
      .selectFrom('products')
      .select((eb) => eb.fn.sum<number | string>('stock').as('units'))
      .where('catalogue_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(totals.units)).toBe(LINES * 10);
    const place = await server.database.db
      .selectFrom('locations')
      .select('units')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(place.units)).toBe(LINES * 10);
    const entries = await server.database.db
      .selectFrom('activity_entries')
      .select('kind')
      .where('catalogue_id', '=', user.id)
      .where('kind', '=', 'count.posted')
      .execute();
    expect(entries).toHaveLength(1);
  }, 120_000);
});
