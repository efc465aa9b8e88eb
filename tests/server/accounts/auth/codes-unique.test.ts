import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { Codes } from '../../../../src/server/features/accounts/codes.js';
import { insertUser } from '../../../../src/server/features/accounts/users.js';
import { randomDigits } from '../../../../src/server/lib/secrets.js';
import { CODE_TTL_MINUTES } from '../../../../src/shared/constants.js';
import { build } from '../../support/build.js';

// The code generator, made scriptable: by default it is the real CSPRNG.
vi.mock('../../../../src/server/lib/secrets.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/server/lib/secrets.js')>();
  return { ...actual, randomDigits: vi.fn(actual.randomDigits) };
});

describe('Codes.issue: one live code per user and purpose, no two live codes alike', async () => {
  const server = await build();
  const { db } = server.database;
  const codes = new Codes(server.config.appSecret, server.clock);
  const nextDigits = (...values: string[]) => {
    for (const value of values) vi.mocked(randomDigits).mockReturnValueOnce(value);
  };
  let sequence = 0;
  const newUser = () =>
    insertUser(
      db,
      { name: 'U', email: `codes-${++sequence}@example.com`, passwordHash: 'x' },
      server.clock.now(),
    );
  const liveRows = (purpose: 'confirm' | 'reset') =>
    db
      .selectFrom('codes')
      .select(['user_id', 'code_hash'])
      .where('purpose', '=', purpose)
      .where('expires_at', '>', server.clock.now())
      .execute();

  it('draws again when the digits are those of another live code of the same purpose', async () => {
    const [first, second] = [await newUser(), await newUser()];
    nextDigits('111111', '111111', '222222');
    expect(await codes.issue(db, first, 'confirm')).toBe('111111');
    expect(await codes.issue(db, second, 'confirm')).toBe('222222');
    expect(vi.mocked(randomDigits)).toHaveBeenCalledTimes(3);
    const rows = await liveRows('confirm');
    expect(new Set(rows.map((row) => row.code_hash)).size).toBe(rows.length);
  });

  it('the same digits may be live for the other purpose (the hash includes the purpose)', async () => {
    const user = await newUser();
    nextDigits('111111');
    expect(await codes.issue(db, user, 'reset')).toBe('111111');
  });

  it('a new code replaces the user’s old one of that purpose', async () => {
    const user = await newUser();
    nextDigits('333333', '444444');
    await codes.issue(db, user, 'confirm');
    await codes.issue(db, user, 'confirm');
    const mine = (await liveRows('confirm')).filter((row) => row.user_id === user);
    expect(mine).toHaveLength(1);
    const check = (code: string) =>
      db.transaction().execute((trx) => codes.checkForUser(trx, user, 'confirm', code, false));
    expect(await check('333333')).toEqual({ ok: false, reason: 'invalid' });
    expect(await check('444444')).toEqual({ ok: true, userId: user });
  });

  it('an expired code no longer holds its digits', async () => {
    const [holder, next] = [await newUser(), await newUser()];
    nextDigits('555555');
    await codes.issue(db, holder, 'confirm');
    server.clock.advance(CODE_TTL_MINUTES * 60_000);
    nextDigits('555555');
    expect(await codes.issue(db, next, 'confirm')).toBe('555555');
    const holders = await db
      .selectFrom('codes')
      .select('user_id')
      .where('user_id', 'in', [holder, next])
      .execute();
    expect(holders).toEqual([{ user_id: next }]);
  });

  it('the database itself refuses two codes of one purpose with the same hash', async () => {
    const [first, second] = [await newUser(), await newUser()];
    nextDigits('666666');
    await codes.issue(db, first, 'confirm');
    const [row] = await db.selectFrom('codes').selectAll().where('user_id', '=', first).execute();
    await expect(
      db
        .insertInto('codes')
        .values({ ...row!, id: randomUUID(), user_id: second })
        .execute(),
    ).rejects.toThrow();
  });

  it('hundreds of real codes are all distinct', async () => {
    const users = [];
    for (let i = 0; i < 200; i++) users.push(await newUser());
    const issued = [];
    for (const user of users) issued.push(await codes.issue(db, user, 'reset'));
    expect(issued.every((code) => /^\d{6}$/.test(code))).toBe(true);
    expect(new Set(issued).size).toBe(issued.length);
    const rows = await liveRows('reset');
    expect(new Set(rows.map((row) => row.code_hash)).size).toBe(rows.length);
  });
});
