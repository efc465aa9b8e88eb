import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../src/shared/schemas/catalogues.js';
import { T } from '../../../src/shared/messages.js';
import { defaultRateLimits } from '../../../src/server/http/rate-limits.js';
import { accounts, newEmail, type SignedIn } from '../support/accounts.js';
import { build, type TestServer } from '../support/build.js';
import { LocalInbox } from '../support/inbox.js';

const HOUR = 3_600_000;
/** A name that carries what a spammer wants read: a phone number and a link. */
const SPAM_NAME = 'Call +1 555 0100 now www.spam.example';

/** Each request from an address of its own: the per-address limits are no bound for this sender. */
let nextAddress = 0;
const anotherAddress = () => {
  nextAddress += 1;
  return `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
};
const post = (server: TestServer, user: SignedIn, url: string, payload: object) =>
  server.app.inject({
    method: 'POST',
    url,
    headers: user.headers,
    payload,
    remoteAddress: anotherAddress(),
  });

describe('what one account may make, over any number of catalogues, at the default limits', async () => {
  const server = await build({ rateLimits: defaultRateLimits });
  const inbox = new LocalInbox(server);
  const steps = accounts(server, inbox);
  const flooder = await steps.signedIn({ name: SPAM_NAME });
  // A day old: past the smaller budget of a new account.
  server.clock.advance(25 * HOUR);

  it('is 20 catalogues, however many are asked for at once; the refusal says so', async () => {
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        post(server, flooder, '/api/catalogues', { name: `${SPAM_NAME} ${i}` }),
      ),
    );
    const statuses = answers.map((res) => res.statusCode).toSorted();
    expect(statuses).toEqual([...Array(20).fill(201), ...Array(5).fill(409)]);
    const refused = answers.find((res) => res.statusCode === 409)!;
    expect(refused.json()).toEqual({ message: T.cataloguesPerAccount(20) });
    expect(T.cataloguesPerAccount(20)).toContain('20 catalogues');
  });

  it('is 50 invitations a day, spread over 20 catalogues or not; only those are mailed', async () => {
    const list = await server.app.inject({ url: '/api/catalogues', headers: flooder.headers });
    const owned = (list.json() as { catalogues: Catalogue[] }).catalogues.filter(
      (catalogue) => !catalogue.personal,
    );
    expect(owned).toHaveLength(20);
    // Three to each catalogue (within its own 20 a day): 60 in all, at once.
    const emails = Array.from({ length: 60 }, (_, i) => newEmail(`flooded-${i}`));
    const answers = await Promise.all(
      emails.map((email, i) =>
        post(server, flooder, `/api/catalogues/${owned[i % 20]!.id}/invitations`, {
          email,
          role: 'viewer',
        }),
      ),
    );
    const statuses = answers.map((res) => res.statusCode).toSorted();
    expect(statuses).toEqual([...Array(50).fill(201), ...Array(10).fill(429)]);
    const refused = answers.find((res) => res.statusCode === 429)!;
    expect(refused.json()).toEqual({ message: T.invitationsPerAccount(50) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    await inbox.fetch();
    const invitationMails = inbox.mails.filter((mail) => emails.includes(mail.to));
    expect(invitationMails).toHaveLength(50);
    for (const mail of invitationMails) {
      // What the sender typed is in the body, as theirs, never in the subject.
      expect(mail.subject).toBe('A Stockroom user invited you to a catalogue');
      expect(mail.text).toContain(`${flooder.email} invited you to join a catalogue`);
      expect(mail.text).toContain(`themselves “${SPAM_NAME}”: these names are theirs`);
    }

    // The next day, the account may invite again.
    server.clock.advance(24 * HOUR);
    const later = await post(server, flooder, `/api/catalogues/${owned[0]!.id}/invitations`, {
      email: newEmail('next-day'),
      role: 'viewer',
    });
    expect(later.statusCode).toBe(201);
  });
});

describe('an account younger than a day', async () => {
  // More requests than one address may make a minute: this is the account's budget.
  const server = await build({ rateLimits: { ...defaultRateLimits, sensitive: 1000 } });
  const steps = accounts(server, new LocalInbox(server));
  const newcomer = await steps.signedIn({ name: 'Nina Newcomer' });

  it('sends as many invitations as one catalogue may, 20, whatever the catalogues', async () => {
    const catalogues = await Promise.all(
      [1, 2, 3].map(
        async (i) =>
          (
            (await post(server, newcomer, '/api/catalogues', { name: `Shop ${i}` })).json() as {
              catalogue: Catalogue;
            }
          ).catalogue,
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 22 }, (_, i) =>
        post(server, newcomer, `/api/catalogues/${catalogues[i % 3]!.id}/invitations`, {
          email: newEmail(`newcomer-${i}`),
          role: 'viewer',
        }),
      ),
    );
    expect(answers.map((res) => res.statusCode).toSorted()).toEqual([
      ...Array(20).fill(201),
      429,
      429,
    ]);
    const refused = answers.find((res) => res.statusCode === 429)!;
    expect(refused.json()).toEqual({ message: T.invitationsPerNewAccount(20) });
    // Until the account is a day old, at the most.
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(24 * 3600);
  });
});
