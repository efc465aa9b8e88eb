import { afterAll, describe, expect, it } from 'vitest';
import { roleCannot } from '../../../src/shared/catalogue-roles.js';
import { M, T } from '../../../src/shared/messages.js';
import { INVITATIONS_PER_DAY } from '../../../src/shared/schemas/catalogues.js';
import { accounts, newEmail, signIn, type SignedIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import { LocalInbox, SmtpInbox } from '../support/inbox.js';
import { TestSmtpServer } from '../../support/smtp.js';
import {
  accept,
  call,
  createCatalogue,
  decline,
  invite,
  invited,
  join,
  received,
} from './support.js';

const DAY_MS = 24 * 3_600_000;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('invitations to a catalogue', async () => {
  // One owner sends many invitations here, on its first day: the account's budget is another
  // file's (account-budgets.test.ts).
  const server = await build({ env: { INVITATIONS_PER_ACCOUNT: '1000' } });
  const inbox = new LocalInbox(server);
  const steps = accounts(server, inbox);
  const owner = await steps.signedIn({ name: 'Olive Owner' });

  /** A new session of the same account (the clock moved past the old one's end). */
  const again = async (user: SignedIn): Promise<SignedIn> => {
    const token = await steps.login(user.email, user.password);
    return { ...user, token, headers: { authorization: `Bearer ${token}` } };
  };

  /** The invitation rows of an address, as stored. */
  const rowsOf = (email: string) =>
    server.database.db
      .selectFrom('catalogue_invitations')
      .selectAll()
      .where('email', '=', email)
      .orderBy('created_at')
      .execute();

  it('answers alike for an address with an account and one without', async () => {
    const catalogue = await createCatalogue(server, owner, 'Alike');
    const known = await signIn(server);
    const unknown = newEmail('nobody');
    const a = await invite(server, owner, catalogue.id, known.email, 'viewer');
    const b = await invite(server, owner, catalogue.id, unknown, 'viewer');
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.headers['content-type']).toBe(b.headers['content-type']);
    const shape = (body: Record<string, unknown>, email: string) =>
      JSON.parse(
        JSON.stringify(body)
          .replaceAll(email, '<email>')
          .replace(/"id":"[0-9a-f-]{36}","email"/, '"id":"<id>","email"')
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>'),
      ) as unknown;
    expect(shape(a.body, known.email)).toEqual(shape(b.body, unknown));
    expect(a.body).toEqual({
      message: T.invitationSent(known.email),
      invitation: {
        id: expect.any(String),
        email: known.email,
        role: 'viewer',
        invitedBy: { id: expect.any(String), name: 'Olive Owner' },
        createdAt: new Date(server.clock.now()).toISOString(),
        expiresAt: new Date(server.clock.now() + 7 * DAY_MS).toISOString(),
      },
    });
    // Both mails are queued the same way, whoever the address belongs to.
    await inbox.fetch();
    const invitations = (email: string) =>
      inbox.mailsTo(email).filter((mail) => mail.subject.includes('invited you'));
    expect(invitations(known.email)).toHaveLength(1);
    expect(invitations(unknown)).toHaveLength(1);
    expect(inbox.lastMailTo(unknown).subject).toBe('A Stockroom user invited you to a catalogue');
  });

  it('lower-cases the address, refuses a member and an owner role', async () => {
    const catalogue = await createCatalogue(server, owner, 'Checks');
    const email = newEmail('Upper');
    const res = await invite(server, owner, catalogue.id, email.toUpperCase());
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(T.invitationSent(email.toLowerCase()));
    const member = await signIn(server);
    await join(server, owner, catalogue.id, member);
    expect(await invite(server, owner, catalogue.id, member.email)).toMatchObject({
      status: 409,
      body: { message: T.alreadyMember(member.email) },
    });
    expect(await invite(server, owner, catalogue.id, owner.email)).toMatchObject({
      status: 409,
      body: { message: T.alreadyMember(owner.email) },
    });
    const bad = await invite(server, owner, catalogue.id, newEmail(), 'owner');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Role must be one of: admin, editor, stock, viewer');
    expect((await invite(server, owner, catalogue.id, 'not-an-address')).status).toBe(400);
  });

  it('is for owners and admins only; a non-member gets 404', async () => {
    const catalogue = await createCatalogue(server, owner, 'Roles');
    const editor = await signIn(server);
    const admin = await signIn(server);
    const stranger = await signIn(server);
    await join(server, owner, catalogue.id, editor, 'editor');
    await join(server, owner, catalogue.id, admin, 'admin');
    const refused = { message: roleCannot('editor', 'manageMembers') };
    expect(await invite(server, editor, catalogue.id, newEmail())).toMatchObject({
      status: 403,
      body: refused,
    });
    const list = `/api/catalogues/${catalogue.id}/invitations`;
    expect(await call(server, editor, 'GET', list)).toMatchObject({ status: 403, body: refused });
    expect(await invite(server, admin, catalogue.id, newEmail())).toMatchObject({ status: 201 });
    for (const res of [
      await invite(server, stranger, catalogue.id, newEmail()),
      await call(server, stranger, 'GET', list),
      await call(server, stranger, 'DELETE', `${list}/${UNKNOWN_ID}`),
      await invite(server, owner, UNKNOWN_ID, newEmail()),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { message: 'Catalogue not found' } });
    }
  });

  it('lists the pending invitations; a new one for the same address replaces the old', async () => {
    const catalogue = await createCatalogue(server, owner, 'Replace');
    const email = newEmail('replace');
    const first = await invited(server, owner, catalogue.id, email, 'viewer');
    // Its mail is read now: two mails to one address read at once come in no set order.
    await inbox.fetch();
    server.clock.advance(2 * 60_000);
    const second = await invited(server, owner, catalogue.id, email, 'admin');
    const list = await call(server, owner, 'GET', `/api/catalogues/${catalogue.id}/invitations`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ invitations: [second] });
    expect((await rowsOf(email)).map((row) => row.status)).toEqual(['revoked', 'pending']);
    // A new mail went for the new invitation.
    await inbox.fetch();
    expect(inbox.mailsTo(email)).toHaveLength(2);
    expect(inbox.lastMailTo(email).text).toContain('as Admin');

    const user = await steps.signedIn({ email });
    expect(await received(server, user)).toEqual([
      expect.objectContaining({ id: second.id, role: 'admin' }),
    ]);
    expect(await accept(server, user, first.id)).toMatchObject({
      status: 404,
      body: { message: M.invitationNotFound },
    });
  });

  it('revokes: the invitee no longer sees it nor can accept it', async () => {
    const catalogue = await createCatalogue(server, owner, 'Revoke');
    const user = await signIn(server);
    const invitation = await invited(server, owner, catalogue.id, user.email);
    expect(await received(server, user)).toHaveLength(1);
    const url = `/api/catalogues/${catalogue.id}/invitations/${invitation.id}`;
    expect(await call(server, owner, 'DELETE', url)).toMatchObject({
      status: 200,
      body: { message: M.invitationRevoked },
    });
    expect(await call(server, owner, 'DELETE', url)).toMatchObject({
      status: 404,
      body: { message: M.invitationNotFound },
    });
    expect(await received(server, user)).toEqual([]);
    expect(await accept(server, user, invitation.id)).toMatchObject({
      status: 404,
      body: { message: M.invitationNotFound },
    });
    // Another catalogue's invitation is not this one's to revoke.
    const other = await createCatalogue(server, owner, 'Other');
    const theirs = await invited(server, owner, other.id, newEmail());
    const cross = `/api/catalogues/${catalogue.id}/invitations/${theirs.id}`;
    expect((await call(server, owner, 'DELETE', cross)).status).toBe(404);
  });

  it('waits for an address without an account until it signs up and confirms', async () => {
    const catalogue = await createCatalogue(server, owner, 'Later');
    const email = newEmail('later');
    const invitation = await invited(server, owner, catalogue.id, email, 'stock');
    // Delivered now, so the sign-up's code is the newest mail to the address: two mails delivered
    // in one go may share their millisecond, and then either can read as the newest.
    await inbox.fetch();
    const user = await steps.signedIn({ email, name: 'Late Comer' });
    expect(await received(server, user)).toEqual([
      {
        id: invitation.id,
        catalogue: { id: catalogue.id, name: 'Later' },
        role: 'stock',
        invitedBy: { name: 'Olive Owner' },
        expiresAt: invitation.expiresAt,
      },
    ]);
    const res = await accept(server, user, invitation.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'You joined Later',
      catalogue: {
        id: catalogue.id,
        name: 'Later',
        personal: false,
        role: 'stock',
        members: 2,
        createdAt: catalogue.createdAt,
        reorderPoint: 10,
      },
    });
    expect(await received(server, user)).toEqual([]);
    const members = await call(server, owner, 'GET', `/api/catalogues/${catalogue.id}/members`);
    expect(members.body.members).toContainEqual(
      expect.objectContaining({ user: expect.objectContaining({ email }), role: 'stock' }),
    );
    // The new member may read the catalogue now.
    expect((await call(server, user, 'GET', `/api/catalogues/${catalogue.id}`)).status).toBe(200);
    expect(await accept(server, user, invitation.id)).toMatchObject({
      status: 404,
      body: { message: M.invitationNotFound },
    });
  });

  it('is answered only by the user of its address', async () => {
    const catalogue = await createCatalogue(server, owner, 'Mine');
    const user = await signIn(server);
    const other = await signIn(server);
    const invitation = await invited(server, owner, catalogue.id, user.email);
    expect(await received(server, other)).toEqual([]);
    for (const res of [
      await accept(server, other, invitation.id),
      await decline(server, other, invitation.id),
      await accept(server, other, UNKNOWN_ID),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { message: M.invitationNotFound } });
    }
    expect(await call(server, other, 'POST', '/api/invitations/not-a-uuid/accept')).toMatchObject({
      status: 404,
      body: { message: M.invitationNotFound },
    });
    expect(await received(server, user)).toHaveLength(1);
  });

  it('declines: the invitation goes and nobody joins', async () => {
    const catalogue = await createCatalogue(server, owner, 'Decline');
    const user = await signIn(server);
    const invitation = await invited(server, owner, catalogue.id, user.email);
    expect(await decline(server, user, invitation.id)).toMatchObject({
      status: 200,
      body: { message: M.invitationDeclined },
    });
    expect(await received(server, user)).toEqual([]);
    expect(await accept(server, user, invitation.id)).toMatchObject({ status: 404 });
    expect((await call(server, user, 'GET', `/api/catalogues/${catalogue.id}`)).status).toBe(404);
    const list = await call(server, owner, 'GET', `/api/catalogues/${catalogue.id}/invitations`);
    expect(list.body).toEqual({ invitations: [] });
  });

  it('joins once when accepted many times at once', async () => {
    const catalogue = await createCatalogue(server, owner, 'Once');
    const user = await signIn(server);
    const invitation = await invited(server, owner, catalogue.id, user.email);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => accept(server, user, invitation.id)),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    expect(answers.filter((res) => res.status === 404)).toHaveLength(7);
    const members = await call(server, owner, 'GET', `/api/catalogues/${catalogue.id}/members`);
    expect(members.body.members).toHaveLength(2);
  });

  it(`sends at most ${INVITATIONS_PER_DAY} a day per catalogue, even at once`, async () => {
    const catalogue = await createCatalogue(server, owner, 'Limit');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => invite(server, owner, catalogue.id, newEmail('many'))),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(INVITATIONS_PER_DAY);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(30 - INVITATIONS_PER_DAY);
    expect(refused[0]!.body).toEqual({ message: T.invitationsPerDay(INVITATIONS_PER_DAY) });
    expect(refused[0]!.body.message).toBe(
      'This catalogue has sent 20 invitations today; try again tomorrow',
    );
    expect(Number(refused[0]!.headers['retry-after'])).toBe(24 * 3600);
    // The window rolls: one more fits once the oldest is 24 hours old.
    server.clock.advance(DAY_MS - 60_000);
    const later = await invite(server, owner, catalogue.id, newEmail());
    expect(later.status).toBe(429);
    expect(Number(later.headers['retry-after'])).toBe(60);
    server.clock.advance(60_000);
    expect((await invite(server, owner, catalogue.id, newEmail())).status).toBe(201);
    // Another catalogue has its own count.
    const other = await createCatalogue(server, owner, 'Limit two');
    expect((await invite(server, owner, other.id, newEmail())).status).toBe(201);
  });

  it("keeps within the address's mail budget, answering the same", async () => {
    const email = newEmail('budget');
    const catalogues = [];
    for (let i = 0; i < 7; i++)
      catalogues.push(await createCatalogue(server, owner, `Budget ${i}`));
    const answers = [];
    for (const [i, catalogue] of catalogues.entries()) {
      // Two within a minute, then one a minute apart: one mail a minute, five an hour.
      if (i > 1) server.clock.advance(61_000);
      answers.push(await invite(server, owner, catalogue.id, email));
    }
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201, 201, 201, 201]);
    await inbox.fetch();
    expect(inbox.mailsTo(email)).toHaveLength(5);
    const user = await steps.signedIn({ email });
    expect(await received(server, user)).toHaveLength(7);
  });
  // Last: it moves the clock past every session of the file.
  it('expires after 7 days', async () => {
    const catalogue = await createCatalogue(server, owner, 'Expire');
    let user = await signIn(server);
    const invitation = await invited(server, owner, catalogue.id, user.email);
    server.clock.advance(7 * DAY_MS - 60_000);
    expect(await received(server, user)).toHaveLength(1);
    server.clock.advance(60_000);
    // Sessions last as long: both sign in again.
    user = await again(user);
    const admin = await again(owner);
    expect(await received(server, user)).toEqual([]);
    for (const res of [
      await accept(server, user, invitation.id),
      await decline(server, user, invitation.id),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { message: M.invitationExpired } });
    }
    const list = await call(server, admin, 'GET', `/api/catalogues/${catalogue.id}/invitations`);
    expect(list.body).toEqual({ invitations: [] });
  });
});

describe('the invitation mail, through a real SMTP server', async () => {
  const smtp = await new TestSmtpServer().start();
  afterAll(() => smtp.stop());
  const server = await build({ env: { SMTP_URL: smtp.url } });
  const steps = accounts(server, new SmtpInbox(server, smtp));
  const owner = await steps.signedIn({ name: 'Ines <Inviter>' });
  const publicUrl = server.config.publicUrl;

  it('says who invites, to which catalogue, the role, the expiry and where to answer', async () => {
    const catalogue = await createCatalogue(server, owner, 'Spare parts & tools');
    const email = newEmail('mailed');
    await invited(server, owner, catalogue.id, email, 'editor');
    await steps.inbox.fetch();
    const mails = smtp.mailsTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    // Nothing the inviter typed in the subject.
    expect(mail.subject).toBe('A Stockroom user invited you to a catalogue');
    const link = `${publicUrl}/invitations`;
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('as Editor');
      expect(body).toContain('8 January 2026 at 00:00 UTC');
    }
    expect(mail.text).toContain(`${owner.email} invited you to join a catalogue on Stockroom`);
    expect(mail.text).toContain(
      'They named the catalogue “Spare parts & tools” and themselves “Ines <Inviter>”: these names are theirs',
    );
    expect(mail.text).toContain(`See your invitations: ${link}`);
    expect(mail.text).toContain(`Sign up with this e-mail address (${email})`);
    expect(mail.html).toContain('themselves “Ines &#60;Inviter&#62;”');
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).not.toContain('<Inviter>');
  });
});
