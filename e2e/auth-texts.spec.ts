import { M } from '../src/shared/messages.js';
import { expect, test } from './support/fixtures.js';
import { mailsTo, readCode, readLink } from './support/mail.js';
import {
  codeBoxes,
  fillLogin,
  loginButton,
  requestResetCode,
  signUpThroughForm,
  toast,
  typeCode,
  wrongCode,
} from './support/ui.js';

/** A claim that a mail went, which the server cannot make: its mail budget may hold one back. */
const CLAIMS_A_MAIL_WENT = /\bwe (have )?sent\b|\bhas been sent\b|\bwas sent to\b/i;

test('after sign-up the login screen offers where to type the code, and the e-mail follows along', async ({
  page,
  account,
}) => {
  await page.goto('/auth/signup');
  await signUpThroughForm(page, account);
  await expect(page).toHaveURL(/\/auth\/login$/);

  const enterCode = page.getByRole('link', { name: 'Enter your code' });
  await expect(enterCode).toHaveAttribute(
    'href',
    `/auth/confirm-account?${new URLSearchParams({ email: account.email }).toString()}`,
  );
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(account.email);

  await enterCode.click();
  await typeCode(page, await readCode(account.email));
  await expect(toast(page, M.accountConfirmed)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);
  // Confirmed: the address is filled in, the password is all that is left.
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(account.email);
  await expect(page.getByRole('link', { name: 'Enter your code' })).toHaveCount(0);
});

test('a login of an unconfirmed account does not claim a new code went when the budget held it back', async ({
  page,
  api,
  account,
}) => {
  await api.signUp(account);
  await readCode(account.email);
  // Within the minute after the sign-up mail, the server sends no other.
  await page.goto('/auth/login');
  await fillLogin(page, account);
  await loginButton(page).click();
  const message = toast(page, M.notConfirmed);
  await expect(message).toBeVisible();
  await expect(message).not.toHaveText(CLAIMS_A_MAIL_WENT);
  await expect(page).toHaveURL(/\/auth\/confirm-account/);
  await expect(page.getByRole('main')).toContainText('Enter the 6-digit code sent to your email');
  await expect(page.getByRole('main')).not.toContainText(CLAIMS_A_MAIL_WENT);
  await page.waitForTimeout(1_000);
  expect(mailsTo(account.email)).toHaveLength(1);
  for (const text of [M.signupDone, M.resendDone, M.forgotDone, M.notConfirmed]) {
    expect(text).not.toMatch(CLAIMS_A_MAIL_WENT);
  }
});

test("a rate-limited request: the server's message, and the wait on the button", async ({
  page,
  user,
}) => {
  await page.route('**/api/auth/login', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'retry-after': '120' },
      contentType: 'application/json',
      body: JSON.stringify({ message: M.tooManyRequests }),
    }),
  );
  await page.goto('/auth/login');
  await fillLogin(page, user);
  await loginButton(page).click();
  // Spec: the error text is the response's message field.
  await expect(toast(page, M.tooManyRequests)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Try again in \d+ seconds$/ })).toBeDisabled();
});

test('a refused reset code: back to forgot-password with the address filled in and only the error', async ({
  page,
  user,
}) => {
  await requestResetCode(page, user.email);
  const code = await readCode(user.email, { subject: /reset/i });
  const link = await readLink(user.email, { subject: /reset/i });

  await page.goto(link);
  await typeCode(page, wrongCode(code));
  await expect(page).toHaveURL(/\/auth\/forgot-password\?email=/);
  await expect(toast(page, M.codeInvalid)).toBeVisible();
  await expect(toast(page, M.forgotDone)).toHaveCount(0);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
  await expect(
    page.getByRole('main').getByRole('alert').filter({ hasText: M.codeInvalid }),
  ).toBeVisible();

  // The right code, but in the URL: checked before the new-password form shows.
  const right = new URL(link);
  right.searchParams.set('token', code);
  await page.goto(`${right.pathname}${right.search}`);
  await expect(page.getByLabel('New Password', { exact: true })).toBeVisible();
  // A refused one in the URL never shows the form.
  const refused = new URL(link);
  refused.searchParams.set('token', wrongCode(code));
  await page.goto(`${refused.pathname}${refused.search}`);
  await expect(page).toHaveURL(/\/auth\/forgot-password\?email=/);
  await expect(toast(page, M.codeInvalid)).toBeVisible();
  await expect(page.getByLabel('New Password', { exact: true })).toHaveCount(0);
});

test('after a reset the login form has the e-mail filled in', async ({ page, user }) => {
  await requestResetCode(page, user.email);
  await page.goto(await readLink(user.email, { subject: /reset/i }));
  await typeCode(page, await readCode(user.email, { subject: /reset/i }));
  const password = `${user.password}-reset9`;
  await page.getByLabel('New Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm New password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(toast(page, M.passwordReset)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
});

test('a refused confirmation code stays next to the boxes after the toast is gone', async ({
  page,
  api,
  account,
}) => {
  await api.signUp(account);
  const code = await readCode(account.email);
  await page.goto(`/auth/confirm-account?${new URLSearchParams({ email: account.email })}`);
  await typeCode(page, wrongCode(code));
  await expect(toast(page, M.codeInvalid)).toBeVisible();
  const inline = page.getByRole('main').getByRole('alert').filter({ hasText: M.codeInvalid });
  await expect(inline).toBeVisible();
  await expect(toast(page, M.codeInvalid)).toBeHidden({ timeout: 10_000 });
  await expect(inline).toBeVisible();
  await expect(codeBoxes(page)[0]!).toHaveValue('');
});

test('a production build has no link to the local mailbox', async ({ page }) => {
  for (const path of ['/auth/login', '/auth/confirm-account', '/auth/reset-password']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: /mailbox/i })).toHaveCount(0);
  }
});
