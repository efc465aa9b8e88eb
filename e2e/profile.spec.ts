import { M, T } from '../src/shared/messages.js';
import { newAccount } from './support/accounts.js';
import { readCode } from './support/mail.js';
import { expect, test } from './support/fixtures.js';
import {
  fillLogin,
  loginButton,
  openUserMenuItem,
  slowDown,
  toast,
  typeCode,
  userMenuButton,
  wrongCode,
} from './support/ui.js';

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

test.beforeEach(async ({ signIn }) => {
  await signIn();
});

test('profile update: validation, then the header greets the new name', async ({ page, user }) => {
  await openUserMenuItem(page, user.name, 'My Profile');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  const name = page.getByLabel('Name', { exact: true });
  const email = page.getByLabel('Email', { exact: true });
  await expect(name).toHaveValue(user.name);
  await expect(email).toHaveValue(user.email);

  const update = page.getByRole('button', { name: 'Update Profile' });
  await name.fill('');
  await email.fill('');
  await update.click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await email.fill('not-an-email');
  await expect(page.getByText('Email is not valid')).toBeVisible();

  const newName = `${user.name} Renamed`;
  await name.fill(newName);
  await email.fill(user.email);
  await slowDown(page, '**/api/auth/profile');
  await update.click();
  await expect(page.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  await expect(toast(page, M.profileUpdated)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(userMenuButton(page, newName)).toBeVisible();
  await page.reload();
  await expect(userMenuButton(page, newName)).toBeVisible();
});

test('change password: validation, wrong current password, then the new one works', async ({
  page,
  user,
}) => {
  await openUserMenuItem(page, user.name, 'My Profile');
  await page.getByRole('link', { name: 'Change Password' }).click();
  await expect(page).toHaveURL(/\/profile\/new-password$/);
  await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();

  const current = page.getByLabel('Current Password', { exact: true });
  const next = page.getByLabel('New Password', { exact: true });
  const confirm = page.getByLabel('Confirm New Password', { exact: true });
  const submit = page.getByRole('button', { name: 'Change Password' });
  await submit.click();
  await expect(page.getByText('Password is required')).toHaveCount(3);

  const newPassword = `${user.password}-changed3`;
  await current.fill(`${user.password}-wrong`);
  await next.fill(newPassword);
  await confirm.fill(`${newPassword}x`);
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await confirm.fill(newPassword);
  await submit.click();
  await expect(toast(page, M.currentPasswordWrong)).toBeVisible();
  await expect(page).toHaveURL(/\/profile\/new-password$/);

  await current.fill(user.password);
  await slowDown(page, '**/api/auth/profile/change-password');
  await submit.click();
  await expect(page.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  await expect(toast(page, M.passwordChanged)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // The server kept this browser's token and ended the other sessions: it stays signed in.
  await page.reload();
  await expect(userMenuButton(page, user.name)).toBeVisible();

  await openUserMenuItem(page, user.name, 'Logout');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await fillLogin(page, user);
  await loginButton(page).click();
  await expect(toast(page, M.badCredentials)).toBeVisible();
  await fillLogin(page, { email: user.email, password: newPassword });
  await loginButton(page).click();
  await expect(userMenuButton(page, user.name)).toBeVisible();
});

test('sessions: each device says where it signed in, and the account exports with them', async ({
  page,
  user,
}) => {
  // Another device signs in from a public address, through the proxy the server trusts.
  const login = await page.request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
    headers: { 'x-forwarded-for': '8.8.8.8', 'user-agent': FIREFOX_ON_LINUX },
  });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };

  await openUserMenuItem(page, user.name, 'My Profile');
  await page.getByRole('link', { name: 'Security' }).click();
  const sessions = page.getByRole('list', { name: 'Your sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'Firefox' })).toContainText('United States');
  await expect(sessions.filter({ hasText: 'This device' })).toContainText('This computer');

  const exported = await page.request.get('/api/auth/export', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(exported.status(), await exported.text()).toBe(200);
  expect(exported.headers()['content-type']).toBe('application/zip');
});

test('logout: back to the login screen, the token is revoked and protected pages are unreachable', async ({
  page,
  user,
  api,
}) => {
  const token = await page.evaluate(() => localStorage.getItem('AccessToken'));
  expect(token).toBeTruthy();
  expect(await api.sessionStatus(token!)).toBe(200);

  await openUserMenuItem(page, user.name, 'Logout');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByText('Welcome Back!')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('AccessToken'))).toBeNull();
  await expect.poll(() => api.sessionStatus(token!)).toBe(401);

  // To the login screen, with the way back to the page that was asked for (none for the list).
  for (const path of ['/', '/profile', '/profile/new-password', '/new/product']) {
    await page.goto(path);
    await expect(page).toHaveURL(
      path === '/' ? /\/auth\/login$/ : `/auth/login?${new URLSearchParams({ next: path })}`,
    );
    await expect(page.getByText('Welcome Back!')).toBeVisible();
  }
});

test('logout offline: this browser is signed out even when the login screen cannot load', async ({
  page,
  context,
  user,
}) => {
  // A page of the app's origin that runs none of its code, to read the shared storage from while
  // the app's tab goes where it can offline (no service worker here: the browser's error page).
  const storage = await context.newPage();
  await storage.goto('/api/health');
  const storedToken = () => storage.evaluate(() => localStorage.getItem('AccessToken'));
  expect(await storedToken()).toBeTruthy();

  await context.setOffline(true);
  await openUserMenuItem(page, user.name, 'Logout');
  await expect.poll(storedToken).toBeNull();

  await context.setOffline(false);
  const back = await context.newPage();
  await back.goto('/');
  await expect(back).toHaveURL(/\/auth\/login$/);
  await expect(back.getByText('Welcome Back!')).toBeVisible();
});

test('e-mail change: the account keeps its address until the code mailed to the new one is entered', async ({
  page,
  user,
  api,
}) => {
  await openUserMenuItem(page, user.name, 'My Profile');
  const newEmail = newAccount('moved').email;
  await page.getByLabel('Email', { exact: true }).fill(newEmail);
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(toast(page, T.emailCodeSent(newEmail, user.email))).toBeVisible();
  const entry = page.getByRole('region', { name: 'Confirm your new email' });
  await expect(entry).toBeVisible();
  // Not yet: the old address still logs in, the new one does not.
  expect(await api.login(user)).toBeTruthy();

  const code = await readCode(newEmail, { subject: /new Stockroom e-mail/ });
  await typeCode(page, wrongCode(code));
  await expect(page.getByLabel('Digit 1 of 6', { exact: true })).toHaveValue('');
  await typeCode(page, code);
  await expect(toast(page, M.emailChanged)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // The new address logs in; the old one no longer does.
  expect(await api.login({ email: newEmail, password: user.password })).toBeTruthy();
  const old = await page.request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
  });
  expect(old.ok()).toBe(false);
  await openUserMenuItem(page, user.name, 'My Profile');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(newEmail);
});
