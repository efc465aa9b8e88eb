import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MAX_STOCK } from '../../../src/shared/constants.js';
import { build, type TestServer } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { getSummary } from '../support/products.js';

const LARGEST_CATALOGUE = 50_000;

/** The signed-in user's id. */
const idOf = async (server: TestServer, user: SignedIn) =>
  (await server.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.headers })).json()
    .user.id as string;

/**
 * `count` products of the owner at one price and stock, written by one SQL statement (through the
 * API, 50,000 products would take minutes). Their names hold `word`, for a search.
 */
async function insertProducts(
  server: TestServer,
  ownerId: string,
  count: number,
  priceCents: bigint,
  stock: number,
  word = 'crate',
) {
  const { db, dialect } = server.database;
  const id = (i: string) =>
    dialect === 'postgres'
      ? sql`'00000000-0000-4000-8000-' || lpad((${sql.raw(i)})::text, 12, '0')`
      : sql`printf('00000000-0000-4000-8000-%012d', ${sql.raw(i)})`;
  const seed = await sql<{ n: number }>`select count(*) as n from products`.execute(db);
  const offset = Number(seed.rows[0]!.n);
  const series =
    dialect === 'postgres'
      ? sql`generate_series(1, ${count}) as s(i)`
      : sql`(with recursive s(i) as (select 1 union all select i + 1 from s where i < ${count})
          select i from s) as s`;
  const name = `${word} `;
  await sql`insert into products (id, catalogue_id, name, name_key, description, search_key,
      price_cents, stock, active, image_key, created_at, updated_at)
    select ${id(`s.i + ${offset}`)}, ${ownerId}, ${name} || s.i, ${name} || s.i, '',
      ${name} || s.i, ${String(priceCents)}, ${stock}, 1, null, s.i, s.i
    from ${series}`.execute(db);
  // The answers are cached by catalogue version: this write did not go through the app.
  await sql`update catalogues set version = version + 1 where id = ${ownerId}`.execute(db);
}

/** Dollars as exact text from cents: 123456n → "1234.56". */
const dollars = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

describe('the summary is exact to the cent however large', async () => {
  const server = await build();

  it(`sums the largest catalogue (${LARGEST_CATALOGUE} × 999,999.99 × ${MAX_STOCK})`, async () => {
    const user = await signIn(server);
    await insertProducts(
      server,
      await idOf(server, user),
      LARGEST_CATALOGUE,
      99_999_999n,
      MAX_STOCK,
    );
    const exact = BigInt(LARGEST_CATALOGUE) * 99_999_999n * BigInt(MAX_STOCK);
    const res = await getSummary(server, user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      count: LARGEST_CATALOGUE,
      units: LARGEST_CATALOGUE * MAX_STOCK,
      value: dollars(exact),
      toReorder: 0,
    });
    // The search's sum on SQLite adds the parts of several bounded statements.
    const searched = await getSummary(server, user, 'q=crate');
    expect(searched.json()).toMatchObject({ count: LARGEST_CATALOGUE, value: dollars(exact) });
  }, 120_000);

  it('sums products at the highest price and stock, whose product passes 2^63 one by one', async () => {
    const user = await signIn(server);
    await insertProducts(server, await idOf(server, user), 3, 9_999_999_999n, MAX_STOCK, 'safe');
    const exact = 3n * 9_999_999_999n * BigInt(MAX_STOCK);
    expect((await getSummary(server, user)).json()).toMatchObject({ value: dollars(exact) });
    expect((await getSummary(server, user, 'q=saf')).json()).toMatchObject({
      value: dollars(exact),
    });
  });

  it('answers a number while its JSON text is the exact amount, a decimal string beyond', async () => {
    const user = await signIn(server);
    const ownerId = await idOf(server, user);
    // 6,442,453,088,483,647 cents: $64,424,530,884,836.47, which a JSON number writes exactly.
    await insertProducts(server, ownerId, 1, 3_000_001n, MAX_STOCK, 'edge');
    const one = 3_000_001n * BigInt(MAX_STOCK);
    const body = (await getSummary(server, user)).body;
    expect(body).toContain('"value":64424530884836.47');
    // Twice that is past 2^53 cents, where a double cannot hold every cent.
    await insertProducts(server, ownerId, 1, 3_000_001n, MAX_STOCK, 'edge');
    expect((await getSummary(server, user)).json()).toMatchObject({ value: dollars(2n * one) });
  });

  it('answers the rounding a float sum gets wrong exactly', async () => {
    const user = await signIn(server);
    const ownerId = await idOf(server, user);
    await insertProducts(server, ownerId, 1, 10n, 1, 'dime');
    await insertProducts(server, ownerId, 1, 20n, 1, 'dimes');
    expect((await getSummary(server, user)).body).toContain('"value":0.3');
  });
});
