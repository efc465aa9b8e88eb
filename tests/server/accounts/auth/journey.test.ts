import { afterAll, describe, expect, it } from 'vitest';
import { M, T } from '../../../../src/shared/messages.js';
import {
  accountSteps,
  expectMessage,
  httpClient,
  newEmail,
  NEW_PASSWORD,
  PASSWORD,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';
import { codeIn, SmtpInbox, type Mail } from '../../support/inbox.js';
import { TestSmtpServer } from '../../../support/smtp.js';

/** A code mail as it must be: HTML and text, the code, its expiry, a link with ?email=. */
function expectCodeMail(mail: Mail, screen: string, email: string, publicUrl: string) {
  const code = codeIn(mail);
  expect(code).toMatch(/^\d{6}$/);
  const link = `${publicUrl}/auth/${screen}?email=${encodeURIComponent(email)}`;
  expect(mail.text).toContain('10 minutes');
  expect(mail.text).toContain(link);
  expect(mail.html).toContain(code!);
  expect(mail.html).toContain('10 minutes');
  expect(mail.html).toContain(`href="${link}"`);
  return code!;
}

describe('the whole account journey over real HTTP, mail through a real SMTP server', async () => {
  const smtp = await new TestSmtpServer().start();
  afterAll(() => smtp.stop());
  const server = await build({ env: { SMTP_URL: smtp.url } });
  const api = httpClient(await server.app.listen({ port: 0, host: '127.0.0.1' }));
  const steps = accountSteps(api, new SmtpInbox(server, smtp));
  const publicUrl = server.config.publicUrl;
  const email = newEmail('journey');
  const movedEmail = newEmail('journey-moved');
  let token = '';

  it('signs up and receives the confirmation code by SMTP', async () => {
    await steps.signUp({ name: 'Journey', email });
    await steps.inbox.fetch();
    const mails = smtp.mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Confirm your Stockroom account');
    expect(mails[0]!.messageId).toMatch(/^<[0-9a-f-]{36}@stockroom\.test>$/);
    expectCodeMail(mails[0]!, 'confirm-account', email, publicUrl);
  });

  it('cannot log in before confirming; confirms with the mailed code, then logs in', async () => {
    expectMessage(await steps.loginWith(email, PASSWORD), 403, M.notConfirmed);
    await steps.confirm(email);
    token = await steps.login(email, PASSWORD);
  });

  it('reads the current user', async () => {
    const res = await steps.user(token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      user: { id: expect.any(String), name: 'Journey', email },
    });
  });

  it('changes the profile once the new address proves itself; both are told', async () => {
    const res = await steps.updateProfile(token, { name: 'Journey Two', email: movedEmail });
    expectMessage(res, 200, T.emailCodeSent(movedEmail, email));
    // The name at once; the address only once the code mailed to it comes back.
    expect((await steps.user(token)).body.user).toMatchObject({ name: 'Journey Two', email });
    await steps.inbox.fetch();
    const mail = steps.inbox.lastMailTo(movedEmail);
    expect(mail.subject).toBe('Confirm your new Stockroom e-mail address');
    expectMessage(await steps.confirmEmail(token, codeIn(mail)!), 200, M.emailChanged);
    expect((await steps.user(token)).body.user).toMatchObject({ email: movedEmail });
    await steps.inbox.fetch();
    expect(steps.inbox.lastMailTo(email).subject).toBe('Your Stockroom e-mail address was changed');
    expect(steps.inbox.lastMailTo(movedEmail).subject).toBe(
      'Your Stockroom e-mail address was changed',
    );
  });

  it('changes the password: this token goes on working, the other sessions end', async () => {
    const other = await steps.login(movedEmail, PASSWORD);
    const res = await steps.changePassword(token, PASSWORD, NEW_PASSWORD);
    expect(res.body).toEqual({ message: M.passwordChanged });
    expect((await steps.user(token)).status).toBe(200);
    expectMessage(await steps.user(other), 401, M.unauthorized);
    await steps.inbox.fetch();
    expect(steps.inbox.lastMailTo(movedEmail).subject).toBe('Your Stockroom password was changed');
  });

  it('forgot, validate, reset: every old token is a 401, the new password logs in', async () => {
    const second = await steps.login(movedEmail, NEW_PASSWORD);
    expectMessage(await steps.forgot(movedEmail), 200, M.forgotDone);
    await steps.inbox.fetch();
    const mail = steps.inbox.lastMailTo(movedEmail);
    expect(mail.subject).toBe('Reset your Stockroom password');
    const code = expectCodeMail(mail, 'reset-password', movedEmail, publicUrl);

    expectMessage(await steps.validate(code, movedEmail), 200, M.codeValid);
    expectMessage(await steps.reset(code, 'third-Password-3', movedEmail), 200, M.passwordReset);
    for (const old of [token, second]) expectMessage(await steps.user(old), 401, M.unauthorized);

    expectMessage(await steps.loginWith(movedEmail, NEW_PASSWORD), 400, M.badCredentials);
    token = await steps.login(movedEmail, 'third-Password-3');
    expect((await steps.user(token)).status).toBe(200);
  });

  it('logs out: the token is a 401 from then on', async () => {
    expectMessage(await steps.logout(token), 200, M.loggedOut);
    expectMessage(await steps.user(token), 401, M.unauthorized);
  });

  it('every mail went out once, to the right address, with an HTML and a text body', async () => {
    await steps.inbox.fetch();
    expect(await server.app.outbox.deliverDue()).toBe(0);
    expect(smtp.mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [email, 'Confirm your Stockroom account'],
      [movedEmail, 'Confirm your new Stockroom e-mail address'],
      [email, 'Your Stockroom e-mail address was changed'],
      [movedEmail, 'Your Stockroom e-mail address was changed'],
      [movedEmail, 'Your Stockroom password was changed'],
      [movedEmail, 'Reset your Stockroom password'],
      [movedEmail, 'Your Stockroom password was changed'],
    ]);
    for (const mail of smtp.mails) {
      expect(mail.text.length).toBeGreaterThan(0);
      expect(mail.html).toMatch(/^<!doctype html>/i);
    }
  });
});
