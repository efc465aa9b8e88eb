import { afterAll, describe, expect, it } from 'vitest';
import { CLOCK_OFFSET_HEADER } from '../../../src/server/http/request-clock-offset.js';
import { M } from '../../../src/shared/messages.js';
import {
  accountSteps,
  expectMessage,
  injectClient,
  newEmail,
  PASSWORD,
} from '../support/accounts.js';
import { build } from '../support/build.js';
import { SmtpInbox } from '../support/inbox.js';
import { TestSmtpServer } from '../../support/smtp.js';

const MINUTE = 60_000;

/**
 * The browser suite cannot move the server's clock, so under NODE_ENV=test a request from this
 * machine may say when it happens relative to now: the resend spec signs up "a minute ago" and can
 * ask for a new code at once. Anywhere else the header means nothing.
 */
describe('a request clock offset, for tests only', async () => {
  const smtp = await new TestSmtpServer().start();
  afterAll(() => smtp.stop());

  /** Mails to an account that signed up as `signUp` says, then asked for a new code at once. */
  async function mailsAfterSignUpAndResend(
    env: Record<string, string>,
    signUp: { headers?: Record<string, string>; remoteAddress?: string },
  ) {
    const server = await build({ env: { SMTP_URL: smtp.url, ...env }, manualClose: true });
    try {
      const steps = accountSteps(injectClient(server.app), new SmtpInbox(server, smtp));
      const account = { name: 'Ada', email: newEmail('offset'), password: PASSWORD };
      const body = { ...account, confirmPassword: PASSWORD };
      expectMessage(
        await steps.api({ url: '/api/auth/signup', body, ...signUp }),
        201,
        M.signupDone,
      );
      expectMessage(await steps.resend(account.email), 200, M.resendDone);
      await steps.inbox.fetch();
      return smtp.mailsTo(account.email).length;
    } finally {
      await server.close();
    }
  }

  it('under NODE_ENV=test, a loopback sign-up a minute back lets a resend at once mail again', async () => {
    expect(await mailsAfterSignUpAndResend({}, {})).toBe(1);
    const before = { headers: { [CLOCK_OFFSET_HEADER]: String(-MINUTE) } };
    expect(await mailsAfterSignUpAndResend({}, before)).toBe(2);
  });

  it.each([
    ['from another machine', {}, { remoteAddress: '203.0.113.7' }],
    ['in production', { NODE_ENV: 'production' }, {}],
    ['in development', { NODE_ENV: 'development' }, {}],
  ])('means nothing %s', async (_, env, where) => {
    const signUp = { ...where, headers: { [CLOCK_OFFSET_HEADER]: String(-MINUTE) } };
    expect(await mailsAfterSignUpAndResend(env, signUp)).toBe(1);
  });

  it.each(['-60000.5', 'soon', '-1e400', '- 60000'])('means nothing as %j', async (offset) => {
    const signUp = { headers: { [CLOCK_OFFSET_HEADER]: offset } };
    expect(await mailsAfterSignUpAndResend({}, signUp)).toBe(1);
  });
});
