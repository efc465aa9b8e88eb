import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { M } from '../src/shared/messages.js';
import { newAccount, type Account } from './support/accounts.js';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { Api } from './support/api.js';
import { ENV, requireEnv } from './support/env.js';
import { expect, test as base } from './support/fixtures.js';
import { readCode } from './support/mail.js';
import {
  codeBoxes,
  logInThroughForm,
  productCard,
  typeCode,
  userMenuButton,
} from './support/ui.js';

/**
 * Every screen at a phone and a desktop width: a full-page screenshot into e2e/artifacts/screens/
 * for a person to look at, and an axe check that fails on serious or critical violations. Each test
 * opens its screen once and resizes the page, rather than opening it again per width.
 */

type StorageState = Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>;

interface SignedInUser {
  account: Account;
  storageState: StorageState;
  productId: string;
}

interface WorkerFixtures {
  /** A user with a few products, logged in once per worker. */
  stocked: SignedInUser;
  /** A user with no products, logged in once per worker. */
  newcomer: SignedInUser;
}

interface TestFixtures {
  /** A page of `stocked`'s session at the test's viewport. */
  stockedPage: Page;
  newcomerPage: Page;
}

async function signedInUser(
  browser: Browser,
  products: Parameters<Api['createProduct']>[1][],
): Promise<SignedInUser> {
  const context = await browser.newContext({ baseURL: requireEnv(ENV.baseUrl) });
  const api = new Api(context.request);
  const account = await api.signUpAndConfirm(newAccount('screens'));
  const token = await api.login(account);
  const ids: string[] = [];
  for (const product of products) ids.push((await api.createProduct(token, product)).id);
  const page = await context.newPage();
  await logInThroughForm(page, account);
  const storageState = await context.storageState();
  await context.close();
  return { account, storageState, productId: ids[0] ?? '' };
}

const test = base.extend<TestFixtures, WorkerFixtures>({
  stocked: [
    async ({ browser }, use) => {
      await use(
        await signedInUser(browser, [
          {
            name: 'Oak crate',
            price: 12.5,
            stock: 25,
            description:
              'A sturdy oak crate for the storeroom, with rope handles on both sides and a lid that closes tight.',
            image: 'crate',
          },
          {
            name: 'Pine shelf',
            price: 1234.5,
            stock: 5,
            description: 'A tall pine shelf.',
            image: 'shelf',
          },
          { name: 'Sold-out tray', price: 3.99, stock: 0, description: 'Nothing left.' },
          { name: 'Steel bin', price: 30, stock: 11, description: 'For screws.' },
        ]),
      );
    },
    { scope: 'worker' },
  ],
  newcomer: [
    async ({ browser }, use) => {
      await use(await signedInUser(browser, []));
    },
    { scope: 'worker' },
  ],
  stockedPage: async ({ browser, stocked }, use) => {
    const context = await browser.newContext({ storageState: stocked.storageState });
    await use(await context.newPage());
    await context.close();
  },
  newcomerPage: async ({ browser, newcomer }, use) => {
    const context = await browser.newContext({ storageState: newcomer.storageState });
    await use(await context.newPage());
    await context.close();
  },
});

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

interface CaptureOptions {
  /** Brings the screen into the state to capture, at each width (e.g. reopens a menu). */
  prepare?: () => Promise<void>;
  /** Only the viewport, for a modal over a long page. */
  viewportOnly?: boolean;
}

/**
 * At each width: waits for every image to be decoded, saves the screenshot
 * (`<screen>-<width>.png`) and runs axe.
 */
async function captureAtEachWidth(page: Page, screen: string, options: CaptureOptions = {}) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await options.prepare?.();
    await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
    await page.screenshot({
      path: `e2e/artifacts/screens/${screen}-${size.width}.png`,
      fullPage: !options.viewportOnly,
      animations: 'disabled',
    });
    await expectNoSeriousA11yViolations(page, `${screen} (${size.width}px wide)`);
  }
}

test('login', async ({ page }) => {
  await page.goto('/auth/login');
  await expect(page.getByText('Welcome Back!')).toBeVisible();
  await captureAtEachWidth(page, 'login');
});

test('signup, empty and with validation messages', async ({ page }) => {
  await page.goto('/auth/signup');
  await expect(page.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
  await captureAtEachWidth(page, 'signup');
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(page.getByText('Confirm Password is required')).toBeVisible();
  await captureAtEachWidth(page, 'signup-errors');
});

test('confirm account', async ({ page }) => {
  await page.goto('/auth/confirm-account?email=someone%40example.test');
  await expect(page.getByText('Enter the 6-digit code sent to your email')).toBeVisible();
  await captureAtEachWidth(page, 'confirm');
});

test('resend code', async ({ page }) => {
  await page.goto('/auth/new-code');
  await expect(page.getByRole('heading', { name: 'Resend Confirmation Code' })).toBeVisible();
  await captureAtEachWidth(page, 'new-code');
});

test('forgot password', async ({ page }) => {
  await page.goto('/auth/forgot-password');
  await expect(page.getByRole('heading', { name: 'Forgot Password?' })).toBeVisible();
  await captureAtEachWidth(page, 'forgot-password');
});

test('reset password: code, then the new-password form', async ({ page, api }) => {
  const account = await api.signUpAndConfirm(newAccount('reset'));
  const since = Date.now();
  await page.request.post('/api/auth/forgot-password', { data: { email: account.email } });
  const code = await readCode(account.email, { subject: /reset/i, since });
  await page.goto(`/auth/reset-password?email=${encodeURIComponent(account.email)}`);
  await expect(codeBoxes(page)[0]!).toBeVisible();
  await captureAtEachWidth(page, 'reset-code');
  await typeCode(page, code);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await captureAtEachWidth(page, 'reset-password');
});

test('product list', async ({ stockedPage: page }) => {
  await page.goto('/');
  await expect(productCard(page, 'Oak crate')).toBeVisible();
  await expect(productCard(page, 'Sold-out tray')).toBeVisible();
  await captureAtEachWidth(page, 'products');
});

test('empty product list', async ({ newcomerPage: page }) => {
  await page.goto('/');
  await expect(page.getByText('No products', { exact: true })).toBeVisible();
  await captureAtEachWidth(page, 'products-empty');
});

test('user menu', async ({ stockedPage: page, stocked }) => {
  await page.goto('/');
  const myProfile = page.getByRole('menuitem', { name: 'My Profile' });
  await captureAtEachWidth(page, 'user-menu', {
    viewportOnly: true,
    prepare: async () => {
      if (!(await myProfile.isVisible())) {
        await userMenuButton(page, stocked.account.name).click();
      }
      await expect(myProfile).toBeVisible();
    },
  });
});

test('delete dialog', async ({ stockedPage: page }) => {
  await page.goto('/');
  await productCard(page, 'Steel bin').getByRole('button', { name: 'Delete Steel bin' }).click();
  await expect(page.getByRole('dialog').getByText('Are you sure?')).toBeVisible();
  await captureAtEachWidth(page, 'delete-dialog', { viewportOnly: true });
});

test('create product, empty and with validation messages', async ({ stockedPage: page }) => {
  await page.goto('/new/product');
  await expect(page.getByRole('heading', { name: 'Create New Product' })).toBeVisible();
  await captureAtEachWidth(page, 'create');
  await page.getByRole('button', { name: 'Create Product' }).click();
  await expect(page.getByText('Description is required')).toBeVisible();
  await captureAtEachWidth(page, 'create-errors');
});

test('product detail', async ({ stockedPage: page, stocked }) => {
  await page.goto(`/details/product/${stocked.productId}`);
  await expect(page.getByText('Product ID')).toBeVisible();
  await captureAtEachWidth(page, 'detail');
});

test('product not found', async ({ stockedPage: page }) => {
  await page.goto(`/details/product/${randomUUID()}`);
  await expect(page.getByText(M.productNotFound)).toBeVisible();
  await captureAtEachWidth(page, 'detail-not-found');
});

test('edit product', async ({ stockedPage: page, stocked }) => {
  await page.goto(`/edit/product/${stocked.productId}`);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Oak crate');
  await captureAtEachWidth(page, 'edit');
});

test('profile', async ({ stockedPage: page, stocked }) => {
  await page.goto('/profile');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(stocked.account.name);
  await captureAtEachWidth(page, 'profile');
});

test('change password', async ({ stockedPage: page }) => {
  await page.goto('/profile/new-password');
  await expect(page.getByLabel('Current Password', { exact: true })).toBeVisible();
  await captureAtEachWidth(page, 'change-password');
});
