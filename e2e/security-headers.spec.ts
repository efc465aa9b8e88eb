import type { Page } from '@playwright/test';
import { M } from '../src/shared/messages.js';
import { expect, test } from './support/fixtures.js';
import { imagePath } from './support/images.js';
import {
  fillLogin,
  loginButton,
  logInThroughForm,
  productCard,
  signUpThroughForm,
  toast,
} from './support/ui.js';

// The service worker's script and what it fetches are under the policy too.
test.use({ serviceWorkers: 'allow' });

/**
 * Every Content-Security-Policy violation the page reports, as a line of text: from the DOM's
 * `securitypolicyviolation` events (also those of elements injected at run time) and from Chromium's
 * console, which reports what it refused.
 */
async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('__reportCspViolation', (line: string) => violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (line: string) => void })
        .__reportCspViolation;
      const where = `${event.sourceFile || location.href}:${event.lineNumber}:${event.columnNumber}`;
      void report(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${where}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test('the app works under its Content-Security-Policy: login, sign-up, toasts, dialogs, previews', async ({
  page,
  account,
  user,
  createProduct,
}) => {
  const violations = await recordViolations(page);

  // The login screen comes with the policy.
  const response = await page.goto('/auth/login');
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("style-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain('unsafe-inline');
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  await expect(page.getByText('Welcome Back!')).toBeVisible();

  // A wrong password: an error toast, styled (react-toastify's stylesheet is in the bundle).
  await fillLogin(page, { email: account.email, password: 'Wrong-password-1' });
  await loginButton(page).click();
  const failed = toast(page, M.badCredentials);
  await expect(failed).toBeVisible();
  await expect(page.locator('.Toastify__toast-container')).toHaveCSS('position', 'fixed');

  // Sign-up: a success toast on the way back to the login screen.
  await page.getByRole('link', { name: 'Create your Free account now' }).click();
  await expect(page.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
  await signUpThroughForm(page, account);

  // Signed in: the create screen previews a picked picture through a blob: URL.
  await createProduct({
    name: 'Spare crate',
    price: 3,
    stock: 1,
    description: 'One to delete.',
    image: 'crate',
  });
  await logInThroughForm(page, user);
  // The card's picture comes from /api/images (img-src).
  const picture = productCard(page, 'Spare crate').locator('img');
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await page.goto('/new/product');
  await page.getByLabel('Product Image', { exact: true }).setInputFiles(imagePath('crate'));
  const preview = page.locator('img[src^="blob:"]');
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(900);

  // The delete confirmation: SweetAlert2's dialog, styled, then its answer (the server's message).
  // The form has a picture now: leaving asks first (the app's own dialog, under the CSP too).
  await page.getByRole('link', { name: 'Back to Products' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Leave' }).click();
  const card = productCard(page, 'Spare crate');
  await card.getByRole('button', { name: 'Delete Spare crate' }).click();
  await expect(dialog.getByText('Are you sure?')).toBeVisible();
  await expect(page.locator('.swal2-container')).toHaveCSS('position', 'fixed');
  await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
  await expect(dialog.getByText('Deleted!')).toBeVisible();
  await expect(dialog.getByText(M.productDeleted)).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toHaveCount(0);

  expect(violations).toEqual([]);
});

test('every screen renders without a Content-Security-Policy violation', async ({
  page,
  user,
  createProduct,
  signIn,
}) => {
  const violations = await recordViolations(page);
  for (const path of [
    '/auth/login',
    '/auth/signup',
    '/auth/confirm-account',
    '/auth/new-code',
    '/auth/forgot-password',
    '/auth/reset-password',
  ]) {
    await page.goto(path, { waitUntil: 'networkidle' });
    await expect(page.getByRole('main')).toBeVisible();
  }

  const product = await createProduct({
    name: 'Looked-at lamp',
    price: 9.5,
    stock: 4,
    description: 'On every screen.',
    image: 'shelf',
  });
  await signIn();
  for (const path of [
    '/',
    `/details/product/${product.id}`,
    `/edit/product/${product.id}`,
    '/new/product',
    '/profile',
    '/profile/new-password',
    '/no/such/screen',
  ]) {
    await page.goto(path, { waitUntil: 'networkidle' });
    await expect(page.getByRole('main')).toBeVisible();
  }
  // The user menu, opened at run time.
  await page.getByRole('button', { name: `Hello ${user.name}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();

  expect(violations).toEqual([]);
});
