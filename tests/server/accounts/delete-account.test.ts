import { afterAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { A } from '../../../src/shared/account-messages.js';
import { TestSmtpServer } from '../../support/smtp.js';
import { build } from '../support/build.js';
import { accountSteps, expectMessage, injectClient, PASSWORD } from '../support/accounts.js';
import { SmtpInbox } from '../support/inbox.js';
import { jpeg } from '../support/images.js';
import { createProduct, imageFiles } from '../support/products.js';
import { addMember, api, createIn, newCatalogue } from '../catalogues/support.js';
import { authenticator, nextStep } from './two-factor/support.js';

/** The entries of a ZIP, by name. */
async function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

describe('deleting an account, and taking its data out first', async () => {
  const smtp = await new TestSmtpServer().start();
  afterAll(() => smtp.stop());
  const server = await build({ env: { SMTP_URL: smtp.url } });
  const client = injectClient(server.app);
  const steps = accountSteps(client, new SmtpInbox(server, smtp));
  const member = async (name: string) => {
    const user = await steps.signedIn({ name });
    const row = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    return { ...user, id: row.id };
  };
  const remove = (token: string, body: Record<string, unknown>) =>
    client({ method: 'DELETE', url: '/api/auth/user', token, body });

  it('exports everything of the account as one ZIP: JSON, CSV and images', async () => {
    const user = await member('Ada Export');
    const product = await createProduct(server, user, { name: 'Blue mug' }, { data: await jpeg() });
    const shared = await newCatalogue(server, user, 'Shop floor');
    expect((await createIn(server, user, shared.id, { name: 'Red pen' })).statusCode).toBe(201);

    const res = await server.app.inject({
      method: 'GET',
      url: '/api/auth/export',
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="stockroom-.+\.zip"$/,
    );
    const entries = await unzip(res.rawPayload);
    const account = JSON.parse(entries.get('account.json')!.toString()) as {
      user: { email: string; name: string };
      sessions: unknown[];
      catalogues: { id: string; name: string; role: string }[];
    };
    expect(account.user).toMatchObject({ email: user.email, name: 'Ada Export' });
    expect(account.sessions).toHaveLength(1);
    expect(account.catalogues.map((each) => each.name)).toContain('Shop floor');
    const names = [...entries.keys()];
    const personalCsv = names.find((name) => /^catalogues\/.+\/products\.csv$/.test(name))!;
    expect(personalCsv).toBeDefined();
    const csv = [...entries]
      .filter(([name]) => name.endsWith('products.csv'))
      .map(([, data]) => data.toString())
      .join('\n');
    expect(csv).toContain('Blue mug');
    expect(csv).toContain('Red pen');
    const image = names.find((name) => name.includes(`images/${product.id}`));
    expect(image).toBeDefined();
    expect(entries.get(image!)!.subarray(0, 4).toString()).toBe('RIFF');
    // A movement says where it happened and which count or order made it, as its table does.
    const movements = entries.get(personalCsv.replace('products.csv', 'movements.csv'))!;
    expect(
      movements
        .toString()
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[0],
    ).toBe(
      'product_id,at,old_stock,new_stock,delta,source,reason,note,location_id,purchase_order_id,count_id',
    );

    // Nobody else's export carries it, and it needs a token.
    const other = await member('Grace Other');
    const theirs = await server.app.inject({
      method: 'GET',
      url: '/api/auth/export',
      headers: other.headers,
    });
    expect((await unzip(theirs.rawPayload)).size).toBeGreaterThan(0);
    expect(theirs.rawPayload.includes(Buffer.from('Blue mug'))).toBe(false);
    expect((await server.app.inject({ method: 'GET', url: '/api/auth/export' })).statusCode).toBe(
      401,
    );
  });

  it('refuses while it owns a shared catalogue, naming it; deletes once handed over', async () => {
    const owner = await member('Ada Owner');
    const colleague = await member('Grace Colleague');
    const shared = await newCatalogue(server, owner, 'Warehouse');
    await addMember(server, shared.id, colleague, 'admin');
    const item = await createIn(server, owner, shared.id, { name: 'Shared bolt' });
    expect(item.statusCode).toBe(201);
    const mine = await createProduct(server, owner, {}, { data: await jpeg() });
    const imagesBefore = (await imageFiles(server)).length;

    const wrong = await remove(owner.token, { password: 'not-the-password-1' });
    expectMessage(wrong, 400, A.passwordWrong);

    const refused = await remove(owner.token, { password: PASSWORD });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(A.ownsSharedCatalogues(['Warehouse']));
    expect((await steps.user(owner.token)).status).toBe(200);

    const handed = await api(server, owner, 'POST', `/api/catalogues/${shared.id}/transfer`, {
      userId: colleague.id,
    });
    expect(handed.statusCode).toBe(200);

    const done = await remove(owner.token, { password: PASSWORD });
    expectMessage(done, 200, A.accountDeleted);
    expect((await steps.user(owner.token)).status).toBe(401);
    expect((await steps.loginWith(owner.email, PASSWORD)).status).toBe(400);
    // Its personal catalogue and that catalogue's image are gone; the shared catalogue stays.
    const left = await server.database.db
      .selectFrom('products')
      .select('id')
      .where('id', '=', mine.id)
      .execute();
    expect(left).toEqual([]);
    expect((await imageFiles(server)).length).toBe(imagesBefore - 2);
    const members = await api(server, colleague, 'GET', `/api/catalogues/${shared.id}/members`);
    expect(members.json()).toMatchObject({ members: [{ user: { name: 'Grace Colleague' } }] });
    expect((members.json() as { members: unknown[] }).members).toHaveLength(1);
    // The activity log keeps the name of who did what.
    const activity = await api(server, colleague, 'GET', `/api/catalogues/${shared.id}/activity`);
    const entries = (activity.json() as { entries: { actor: { id: null; name: string } }[] })
      .entries;
    expect(entries.some((entry) => entry.actor?.name === 'Ada Owner')).toBe(true);
    expect(entries.find((entry) => entry.actor?.name === 'Ada Owner')!.actor.id).toBeNull();
    // A mail confirms it, over SMTP.
    await steps.inbox.fetch();
    expect(steps.inbox.lastMailTo(owner.email).subject).toBe('Your Stockroom account was deleted');
  });

  it('needs the second factor when it is on', async () => {
    const account = await steps.signedIn();
    const started = await client({ url: '/api/auth/mfa/totp', token: account.token });
    const app = authenticator((JSON.parse(started.text) as { secret: string }).secret, server);
    const body = { code: app.code() };
    const on = await client({ url: '/api/auth/mfa/totp/confirm', token: account.token, body });
    expect(on.status).toBe(200);
    nextStep(server);
    const without = await remove(account.token, { password: PASSWORD });
    expectMessage(without, 400, A.codeRequired);
    const wrong = await remove(account.token, { password: PASSWORD, code: '000000' });
    expect(wrong.status).toBe(400);
    expect((await steps.user(account.token)).status).toBe(200);
    const done = await remove(account.token, { password: PASSWORD, code: app.code() });
    expectMessage(done, 200, A.accountDeleted);
  });

  it('spends no second factor on a deletion it refuses for a shared catalogue', async () => {
    const owner = await member('Ada Owner');
    await newCatalogue(server, owner, 'Warehouse');
    const started = await client({ url: '/api/auth/mfa/totp', token: owner.token });
    const app = authenticator((JSON.parse(started.text) as { secret: string }).secret, server);
    const on = await client({
      url: '/api/auth/mfa/totp/confirm',
      token: owner.token,
      body: { code: app.code() },
    });
    const [recoveryCode] = (JSON.parse(on.text) as { recoveryCodes: string[] }).recoveryCodes;
    nextStep(server);

    for (const code of [recoveryCode!, app.code()]) {
      const refused = await remove(owner.token, { password: PASSWORD, code });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(A.ownsSharedCatalogues(['Warehouse']));
    }
    const status = await client({ method: 'GET', url: '/api/auth/mfa', token: owner.token });
    expect(JSON.parse(status.text)).toMatchObject({ recoveryCodesLeft: 10 });
    // Both are still the owner's to use: the same code signs in.
    const login = await steps.loginWith(owner.email, PASSWORD);
    const { challengeId } = (login.body as unknown as { mfa: { challengeId: string } }).mfa;
    const signedIn = await client({
      url: '/api/auth/login/mfa',
      body: { challengeId, recoveryCode },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
  });

  it('deletes only its own account, whatever the role', async () => {
    const owner = await member('Olga Owner');
    const viewer = await member('Vic Viewer');
    const shared = await newCatalogue(server, owner, 'Front desk');
    await addMember(server, shared.id, viewer, 'viewer');
    // A member's deletion ends its membership only: the owner and the catalogue stay.
    const done = await remove(viewer.token, { password: PASSWORD });
    expectMessage(done, 200, A.accountDeleted);
    expect((await steps.user(owner.token)).status).toBe(200);
    const members = await api(server, owner, 'GET', `/api/catalogues/${shared.id}/members`);
    expect((members.json() as { members: unknown[] }).members).toHaveLength(1);
  });
});
