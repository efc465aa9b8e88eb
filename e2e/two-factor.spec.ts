import { Secret, TOTP } from 'otpauth';
import { A } from '../src/shared/account-messages.js';
import { CLOCK_OFFSET_HEADER } from '../src/server/http/request-clock-offset.js';
import { expect, test } from './support/fixtures.js';
import {
  fillLogin,
  loginButton,
  openUserMenuItem,
  toast,
  typeCode,
  userMenuButton,
} from './support/ui.js';

const STEP_MS = 30_000;

test('two-factor sign-in: set up from the profile, then login asks for a code or a recovery code', async ({
  page,
  signIn,
  user,
}) => {
  await signIn();
  await openUserMenuItem(page, user.name, 'My Profile');
  await page.getByRole('link', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/profile\/security$/);
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(
    section.getByRole('img', { name: 'QR code for your authenticator app' }),
  ).toBeVisible();
  const key = (await section.getByTestId('totp-key').textContent())!.replace(/\s/g, '');
  const secret = Secret.fromBase32(key);
  const code = (offsetMs = 0) => TOTP.generate({ secret, timestamp: Date.now() + offsetMs });

  await typeCode(page, code());
  await expect(toast(page, A.totpOn)).toBeVisible();
  const shown = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(shown).toHaveCount(10);
  const recoveryCodes = await shown.allTextContents();
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText('10 of 10 recovery codes left')).toBeVisible();

  // The next sign-ins happen a step later, as the server sees them: the set-up code is used.
  await page.setExtraHTTPHeaders({ [CLOCK_OFFSET_HEADER]: String(STEP_MS) });
  await openUserMenuItem(page, user.name, 'Logout');
  await expect(page).toHaveURL(/\/auth\/login/);
  await fillLogin(page, user);
  await loginButton(page).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
  await typeCode(page, code(STEP_MS));
  // A logout leaves no way back (lib/session/logout.ts): signed in, the product list.
  await expect(page).toHaveURL(/\/$/);
  await expect(userMenuButton(page, user.name)).toBeVisible();

  await openUserMenuItem(page, user.name, 'Logout');
  await fillLogin(page, user);
  await loginButton(page).click();
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill('wrong-codes');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: A.recoveryCodeWrong })).toBeVisible();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(userMenuButton(page, user.name)).toBeVisible();

  await page.goto('/profile/security');
  await expect(section.getByText('9 of 10 recovery codes left')).toBeVisible();
});

test('an account without two-factor sign-in logs in exactly as before', async ({ page, user }) => {
  await page.goto('/auth/login');
  await expect(page.getByText('Welcome Back!')).toBeVisible();
  await fillLogin(page, user);
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(userMenuButton(page, user.name)).toBeVisible();
});
