import { M } from '../src/shared/messages.js';
import type { Account } from './support/accounts.js';
import { ENV, requireEnv } from './support/env.js';
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
 * In its own file, which runs after most of the others: the confirm screen holds 'Resend code' back
 * for a minute from arrival (the server sends at most one confirmation code a minute to an
 * address), so this test spends that minute. It uses an account the global setup signed up at the
 * start of the run, whose first code mail is long there.
 */

test('a wrong code is rejected and cleared; a resent code confirms the account', async ({
  page,
  api,
  account,
}, testInfo) => {
  // A retry starts over with a new account (the first attempt may have confirmed that one).
  test.setTimeout(120_000);
  let early = JSON.parse(requireEnv(ENV.earlyAccount)) as Account;
  if (testInfo.retry > 0) {
    await api.signUp(account);
    early = account;
  }

  const firstCode = await readCode(early.email);
  await page.goto(await readLink(early.email, { subject: /confirm/i }));
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
  await page.waitForTimeout(3_000);
  await page.reload();
  await expect(waiting).toBeDisabled();
  expect(await secondsShown(waiting)).toBeLessThanOrEqual(shownFirst - 3);

  // Once the minute is over, the plain link works.
  await expect(resend).toBeVisible({ timeout: 65_000 });
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
  await expect(email).toHaveValue(early.email);
  await email.fill('');
  await page.getByRole('button', { name: 'Resend code' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await email.fill(early.email);
  const since = Date.now();
  await slowDown(page, '**/api/auth/resend-confirmation');
  await page.getByRole('button', { name: 'Resend code' }).click();
  await expect(page.getByRole('button', { name: 'Resending...' })).toBeDisabled();
  await expect(toast(page, M.resendDone)).toBeVisible();
  // Asking again is held back for another minute.
  await expect(countingDown(page, 'button', 'Resend code')).toBeDisabled();

  const newCode = await readCode(early.email, { since });
  expect(newCode).not.toBe(firstCode);
  await page.goto(await readLink(early.email, { subject: /confirm/i, since }));
  await typeCode(page, newCode);
  await expect(toast(page, M.accountConfirmed)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);

  await fillLogin(page, early);
  await loginButton(page).click();
  await expect(userMenuButton(page, early.name)).toBeVisible();
});
