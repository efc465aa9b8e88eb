import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { A } from '../src/shared/account-messages.js';
import { newAccount, type Account } from './support/accounts.js';
import { expect, test } from './support/fixtures.js';
import { root, startBuiltServer, type RunningServer } from './support/server.js';
import { fillLogin, loginButton, openUserMenuItem, toast, userMenuButton } from './support/ui.js';

/**
 * Passkeys in Chromium, with the virtual authenticator of the DevTools protocol standing in for a
 * phone or a security key: it makes real credentials and signs real challenges. Browsers take no
 * IP address as a passkey's site, so this spec runs a server of its own named `localhost` (the
 * suite's is 127.0.0.1), with its mail in its local mailbox.
 */
test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-passkeys-'));
  server = await startBuiltServer(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      SMTP_URL: undefined,
      DATABASE_URL: undefined,
      APP_SECRET: randomBytes(48).toString('base64url'),
      RATE_LIMIT_SENSITIVE: '100000',
      RATE_LIMIT_GENERAL: '100000',
    },
    path.join(root, 'e2e', 'artifacts', 'passkeys-server.log'),
    root,
    'localhost',
  );
});

test.afterAll(async () => {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const api = async (url: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
  const response = await fetch(server.baseUrl + url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  expect(response.status, `${url}: ${response.status}`).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
};

/** A confirmed account on this spec's server, its code read from the local mailbox. */
async function confirmedAccount(): Promise<Account> {
  const account = newAccount('passkey');
  await api('/api/auth/signup', { body: { ...account, confirmPassword: account.password } });
  // The outbox sends it a moment after the answer.
  let text: string | undefined;
  await expect
    .poll(async () => {
      const { mails } = (await api('/api/dev/mails')) as { mails: { to: string; text: string }[] };
      text = mails.find((mail) => mail.to === account.email)?.text;
      return text !== undefined;
    })
    .toBe(true);
  const code = /\b(\d{6})\b/.exec(text!)![1];
  await api('/api/auth/confirm-account', { body: { token: code, email: account.email } });
  return account;
}

/** A platform authenticator that checks its owner (fingerprint, face) and keeps its passkeys. */
async function virtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

async function logInWithPassword(page: Page, account: Account) {
  await page.goto(`${server.baseUrl}/auth/login`);
  await fillLogin(page, account);
  await loginButton(page).click();
}

test('a passkey added on the profile logs in without a password, and is a second step', async ({
  page,
}) => {
  const account = await confirmedAccount();
  await virtualAuthenticator(page);
  await logInWithPassword(page, account);
  await expect(userMenuButton(page, account.name)).toBeVisible();

  await page.goto(`${server.baseUrl}/profile/security`);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('No passkeys yet.')).toBeVisible();
  await section.getByLabel('Name (optional)').fill('This laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(toast(page, A.passkeyAdded)).toBeVisible();
  const passkeys = section.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
  await expect(passkeys).toHaveCount(1);
  await expect(passkeys.first()).toContainText('This laptop');
  await expect(passkeys.first()).toContainText('not used yet');

  // Without a password: the passkey names the account.
  await openUserMenuItem(page, account.name, 'Logout');
  await expect(page.getByText('Welcome Back!')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(userMenuButton(page, account.name)).toBeVisible();
  await page.goto(`${server.baseUrl}/profile/security`);
  await expect(passkeys.first()).toContainText('last used');

  // With two-factor sign-in on, the passkey finishes a password login.
  const token = ((await api('/api/auth/login', { body: account })) as { token: string }).token;
  const { secret } = (await api('/api/auth/mfa/totp', { token, body: {} })) as { secret: string };
  const code = TOTP.generate({ secret: Secret.fromBase32(secret) });
  await api('/api/auth/mfa/totp/confirm', { token, body: { code } });
  await openUserMenuItem(page, account.name, 'Logout');
  // Signed out once the login screen shows: a login page opened before that finds the session
  // still there and goes on to the products.
  await expect(page.getByText('Welcome Back!')).toBeVisible();
  await logInWithPassword(page, account);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(userMenuButton(page, account.name)).toBeVisible();
});

test('a passkey the server no longer knows is refused, and says so', async ({ page }) => {
  const account = await confirmedAccount();
  await virtualAuthenticator(page);
  await logInWithPassword(page, account);
  await expect(userMenuButton(page, account.name)).toBeVisible();
  await page.goto(`${server.baseUrl}/profile/security`);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(toast(page, A.passkeyAdded)).toBeVisible();
  const row = section.getByRole('listitem').first();
  await row.getByRole('button', { name: /^Remove/ }).click();
  await row.getByLabel('Your password, to remove it').fill('not-the-Password-1');
  await row.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(row.getByRole('alert')).toHaveText(A.passwordWrong);
  await row.getByLabel('Your password, to remove it').fill(account.password);
  await row.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(toast(page, A.passkeyRemoved)).toBeVisible();
  await expect(section.getByText('No passkeys yet.')).toBeVisible();

  // The device still holds it; the server refuses it.
  await openUserMenuItem(page, account.name, 'Logout');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: A.passkeyRefused })).toBeVisible();
  await expect(page.getByText('Welcome Back!')).toBeVisible();
});
