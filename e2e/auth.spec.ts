import { M } from '../src/shared/messages.js';
import { expect, test } from './support/fixtures.js';
import { readCode, readLink } from './support/mail.js';
import {
  codeBoxes,
  countingDown,
  fillLogin,
  loginButton,
  slowDown,
  toast,
  typeCode,
  userMenuButton,
  wrongCode,
} from './support/ui.js';

test('sign up: every validation message, then the mailed code confirms the account and the user logs in', async ({
  page,
  account,
}) => {
  await page.goto('/auth/signup');
  await expect(page.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
  const name = page.getByLabel('Name', { exact: true });
  const email = page.getByLabel('Email', { exact: true });
  const password = page.getByLabel('Password', { exact: true });
  const confirm = page.getByLabel('Confirm Password', { exact: true });
  const submit = page.getByRole('button', { name: 'Sign Up', exact: true });
  await expect(page.getByRole('link', { name: 'Already have an account? Log in' })).toHaveAttribute(
    'href',
    '/auth/login',
  );

  // Validates on submit...
  await submit.click();
  for (const message of [
    'Name is required',
    'Email is required',
    'Password is required',
    'Confirm Password is required',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page).toHaveURL(/\/auth\/signup$/);

  // ...then re-validates on change.
  await name.fill('N'.repeat(51));
  await expect(page.getByText('Name must be less than 50 characters')).toBeVisible();
  await email.fill('not-an-email');
  await expect(page.getByText('Email is not valid')).toBeVisible();
  await password.fill('onlyletters');
  await expect(page.getByText('Password must contain at least one number')).toBeVisible();
  await password.fill('12345678');
  await expect(page.getByText('Password must contain at least one letter')).toBeVisible();
  await password.fill('abc1');
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await password.fill(account.password);
  await confirm.fill(`${account.password}x`);
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  // A change of the password re-checks the confirmation: fixed from either field, or broken again.
  await password.fill(`${account.password}x`);
  await expect(page.getByText('Passwords do not match')).toBeHidden();
  await password.fill(account.password);
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  await name.fill(account.name);
  await email.fill(account.email);
  await confirm.fill(account.password);
  for (const message of [
    'Name must be less than 50 characters',
    'Email is not valid',
    'Passwords do not match',
  ]) {
    await expect(page.getByText(message)).toBeHidden();
  }

  await slowDown(page, '**/api/auth/signup');
  await submit.click();
  await expect(page.getByRole('button', { name: 'Creating account...' })).toBeDisabled();
  await expect(toast(page, M.signupDone)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);

  // The mail carries the code and a link to the confirm screen (the link never carries the code).
  const code = await readCode(account.email);
  const link = await readLink(account.email, { subject: /confirm/i });
  expect(link).not.toContain(code);
  await page.goto(link);
  await expect(page.getByText('Enter the 6-digit code sent to your email')).toBeVisible();
  // A code was just sent: 'Resend code' counts down its minute, disabled (resend-code.spec.ts
  // waits it out).
  await expect(countingDown(page, 'link', 'Resend code')).toBeDisabled();
  await typeCode(page, code);
  await expect(toast(page, M.accountConfirmed)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);

  await fillLogin(page, account);
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(userMenuButton(page, account.name)).toBeVisible();
});

test('log in: validation, a wrong password and an unconfirmed account are refused', async ({
  page,
  api,
  user,
  account,
}) => {
  await page.goto('/auth/login');
  await expect(page.getByText('Welcome Back!')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
    'href',
    /\/auth\/forgot-password$/,
  );
  await expect(page.getByRole('link', { name: 'Create your Free account now' })).toHaveAttribute(
    'href',
    /\/auth\/signup$/,
  );

  await loginButton(page).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();

  await fillLogin(page, { email: user.email, password: `${user.password}-wrong` });
  await slowDown(page, '**/api/auth/login');
  await loginButton(page).click();
  await expect(page.getByRole('button', { name: 'Logging in...' })).toBeDisabled();
  const refused = toast(page, M.badCredentials);
  // Toasts do not close on a click, but on their own after 5 seconds (paused while hovered). The
  // pointer goes to it at once: on a loaded machine, checks in between could outlast its 5 seconds.
  await refused.hover();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await refused.click();
  await page.waitForTimeout(500);
  await expect(refused).toBeVisible();
  await page.mouse.move(5, 700);
  await expect(refused).toBeHidden({ timeout: 8_000 });

  // Right password, but the account was never confirmed.
  await api.signUp(account);
  await fillLogin(page, account);
  await loginButton(page).click();
  await expect(toast(page, M.notConfirmed)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/confirm-account/);
  await expect(countingDown(page, 'link', 'Resend code')).toBeDisabled();
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('forgot password: code, new password, log in with it; the old session elsewhere is signed out', async ({
  page,
  browser,
  user,
  signIn,
}) => {
  // The session that the reset must end, in another browser context.
  const otherContext = await browser.newContext();
  const oldSession = await otherContext.newPage();
  await signIn(user, oldSession);

  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot Password?' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Already have an account? Login' })).toBeVisible();
  const email = page.getByLabel('Email', { exact: true });
  await page.getByRole('button', { name: 'Send Code' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await email.fill(user.email);
  await slowDown(page, '**/api/auth/forgot-password');
  await page.getByRole('button', { name: 'Send Code' }).click();
  await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  await expect(toast(page, M.forgotDone)).toBeVisible();
  await expect(email).toHaveValue('');
  // Asking again for that address waits a minute, here and on the code screen.
  await expect(countingDown(page, 'button', 'Send Code')).toBeDisabled();

  const code = await readCode(user.email, { subject: /reset/i });
  const link = await readLink(user.email, { subject: /reset/i });

  // A rejected code clears the boxes and goes back to the forgot-password screen.
  await page.goto(link);
  await expect(codeBoxes(page)[0]!).toBeVisible();
  await expect(countingDown(page, 'link', 'Request a new code')).toBeDisabled();
  await typeCode(page, wrongCode(code));
  await expect(toast(page, M.codeInvalid)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/forgot-password/);

  await page.goto(link);
  await typeCode(page, code);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]token=${code}`));
  const newPassword = page.getByLabel('New Password', { exact: true });
  const confirmPassword = page.getByLabel('Confirm New password', { exact: true });
  const resetButton = page.getByRole('button', { name: 'Reset password' });
  await resetButton.click();
  await expect(page.getByText('Password is required').first()).toBeVisible();
  const password = `${user.password}-new2`;
  await newPassword.fill(password);
  await confirmPassword.fill(`${password}x`);
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await confirmPassword.fill(password);
  await resetButton.click();
  await expect(toast(page, M.passwordReset)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);

  // The old password no longer works, the new one does.
  await fillLogin(page, user);
  await loginButton(page).click();
  await expect(toast(page, M.badCredentials)).toBeVisible();
  await fillLogin(page, { email: user.email, password });
  await loginButton(page).click();
  await expect(userMenuButton(page, user.name)).toBeVisible();

  // The session opened before the reset is gone.
  await oldSession.reload();
  await expect(oldSession).toHaveURL(/\/auth\/login$/);
  await expect(oldSession.getByText('Welcome Back!')).toBeVisible();
  await otherContext.close();
});
