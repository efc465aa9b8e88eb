import { M } from '../src/shared/messages.js';
import { newAccount } from './support/accounts.js';
import { expect, test } from './support/fixtures.js';
import { readCode, readLink } from './support/mail.js';
import {
  countingDown,
  expectCodeCleared,
  fillLogin,
  loginButton,
  secondsShown,
  slowDown,
  toast,
  typeCode,
  userMenuButton,
  wrongCode,
} from './support/ui.js';

/*
 * The confirm screen holds 'Resend code' back for a minute from arrival, and the server sends at
 * most one confirmation code a minute to an address. Neither minute is waited for: the account
 * signs up "a minute ago" (a test-only header the server accepts under NODE_ENV=test from
 * loopback), and the browser's clock is moved forward instead of waiting.
 */

test('a wrong code is rejected and cleared; a resent code confirms the account', async ({
  page,
  api,
}) => {
  const account = newAccount('resend');
  await api.signUp(account, { msAgo: 61_000 });
  await page.clock.install();

  const firstCode = await readCode(account.email);
  await page.goto(await readLink(account.email, { subject: /confirm/i }));
  await expect(page.getByText('Enter the 6-digit code sent to your email')).toBeVisible();
  // Right after arrival 'Resend code' counts down, disabled.
  const waiting = countingDown(page, 'link', 'Resend code');
  await expect(waiting).toBeVisible();
  await expect(waiting).toBeDisabled();
  await expect(waiting).toHaveText(/^Resend code in \d+ s/);
  const resend = page.getByRole('link', { name: 'Resend code', exact: true });
  await expect(resend).toHaveCount(0);
  const shownFirst = await secondsShown(waiting);
  expect(shownFirst).toBeGreaterThan(50);

  await typeCode(page, wrongCode(firstCode));
  await expect(toast(page, M.codeInvalid)).toBeVisible();
  await expectCodeCleared(page);
  await expect(page).not.toHaveURL(/\/auth\/login/);

  // A reload goes on counting where it was, rather than starting the minute again.
  await page.clock.fastForward(3_000);
  await page.reload();
  await expect(waiting).toBeDisabled();
  expect(await secondsShown(waiting)).toBeLessThanOrEqual(shownFirst - 3);

  // Once the minute is over, the plain link works.
  await page.clock.fastForward(60_000);
  await expect(resend).toBeVisible();
  await expect(waiting).toHaveCount(0);
  await resend.click();
  await expect(page).toHaveURL(/\/auth\/new-code/);
  await expect(page.getByRole('heading', { name: 'Resend Confirmation Code' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Already have an account? Login' })).toHaveAttribute(
    'href',
    '/auth/login',
  );
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
    'href',
    '/auth/forgot-password',
  );
  // The link carries the e-mail over from the confirm screen.
  const email = page.getByLabel('Email', { exact: true });
  await expect(email).toHaveValue(account.email);
  await email.fill('');
  await page.getByRole('button', { name: 'Resend code' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await email.fill(account.email);
  const since = Date.now();
  await slowDown(page, '**/api/auth/resend-confirmation');
  await page.getByRole('button', { name: 'Resend code' }).click();
  await expect(page.getByRole('button', { name: 'Resending...' })).toBeDisabled();
  await expect(toast(page, M.resendDone)).toBeVisible();
  // Asking again is held back for another minute.
  await expect(countingDown(page, 'button', 'Resend code')).toBeDisabled();

  const newCode = await readCode(account.email, { since });
  expect(newCode).not.toBe(firstCode);
  await page.goto(await readLink(account.email, { subject: /confirm/i, since }));
  await typeCode(page, newCode);
  await expect(toast(page, M.accountConfirmed)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);

  await fillLogin(page, account);
  await loginButton(page).click();
  await expect(userMenuButton(page, account.name)).toBeVisible();
});
