import { describe, expect, it } from 'vitest';
import { requestCode } from '../../../src/server/features/accounts/code-requests.js';
import { signUp } from '../../../src/server/features/accounts/signup.js';
import { newEmail, PASSWORD, userRow } from '../support/accounts.js';
import { build, type TestServer } from '../support/build.js';

const requestsTo = (server: TestServer, email: string) =>
  server.database.db
    .selectFrom('outbox')
    .select(['kind', 'purpose', 'subject', 'text_body', 'html_body', 'counted_at', 'code_id'])
    .where('recipient', '=', email)
    .execute();

const request = (kind: string, purpose: string) => ({
  kind,
  purpose,
  subject: '',
  text_body: '',
  html_body: '',
  counted_at: null,
  code_id: null,
});

describe('the sign-up and code-request services', async () => {
  const server = await build();
  const deps = { db: server.database.db, clock: server.clock, outbox: server.app.outbox };
  const codes = () => server.database.db.selectFrom('codes').select('id').execute();

  it('a new address: an unconfirmed account and one sign-up request, no code and no body yet', async () => {
    const email = newEmail('new');
    await signUp(deps, { name: 'Ada', email, password: PASSWORD });
    expect(await userRow(server, email)).toMatchObject({ name: 'Ada', confirmed: 0 });
    expect((await userRow(server, email))!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await requestsTo(server, email)).toEqual([request('signup', 'confirm')]);
    expect(await codes()).toEqual([]);
  });

  it('an address with an account: the account stays exactly as it was; one more request', async () => {
    const email = newEmail('taken');
    await signUp(deps, { name: 'First', email, password: PASSWORD });
    const before = await userRow(server, email);
    server.clock.advance(1000);
    await signUp(deps, { name: 'Second', email, password: 'other-Password-2' });
    expect(await userRow(server, email)).toEqual(before);
    expect(await requestsTo(server, email)).toEqual([
      request('signup', 'confirm'),
      request('signup', 'confirm'),
    ]);
  });

  it('parallel sign-ups for one new address: one account, one request each', async () => {
    const email = newEmail('parallel');
    await Promise.all(
      [1, 2, 3, 4].map((i) => signUp(deps, { name: `N${i}`, email, password: PASSWORD })),
    );
    const users = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(users).toHaveLength(1);
    expect(await requestsTo(server, email)).toHaveLength(4);
  });

  it('code requests write one row alike for an unknown address and a known one', async () => {
    const known = newEmail('known');
    await signUp(deps, { name: 'Known', email: known, password: PASSWORD });
    const unknown = newEmail('unknown');
    for (const email of [known, unknown]) {
      await requestCode(deps, email, 'confirm');
      await requestCode(deps, email, 'reset');
    }
    expect(await requestsTo(server, unknown)).toEqual([
      request('confirm-code', 'confirm'),
      request('reset-code', 'reset'),
    ]);
    expect((await requestsTo(server, known)).slice(1)).toEqual(await requestsTo(server, unknown));
  });
});
