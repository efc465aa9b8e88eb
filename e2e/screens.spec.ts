import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page, ViewportSize } from '@playwright/test';
import { M, T } from '../src/shared/messages.js';
import { newAccount, type Account } from './support/accounts.js';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { Api } from './support/api.js';
import { ENV, requireEnv } from './support/env.js';
import { expect, test as base, uncaughtErrorsOf } from './support/fixtures.js';
import {
  layoutShift,
  openReadInTwo,
  startTagsBetween,
  watchLayoutShifts,
} from './support/layout-shift.js';
import { readCode } from './support/mail.js';
import {
  codeBoxes,
  logInThroughForm,
  productCard,
  typeCode,
  userMenuButton,
} from './support/ui.js';

/**
 * Every screen at a phone and a desktop width: an axe check that fails on serious or critical
 * violations, and the layout shift from the first paint on, at most MAX_LAYOUT_SHIFT. Each width
 * opens its screen afresh at that size, so that the shift measured is the one a user on that
 * screen sees (a resize would move everything and tell nothing). `npm run screenshots` also saves
 * a full-page picture of each into e2e/artifacts/screens/ for a person to look at; other runs
 * spend no time on them.
 */
const savePictures = process.env.SCREENSHOTS === 'update';

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
  /** The test's own context, its layout shifts watched (the screens that need no account). */
  context: BrowserContext;
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
  // Not a beforeEach: that would have Playwright create the test's context for the tests that
  // open the signed-in users' contexts instead and never use it.
  context: async ({ context }, use) => {
    await watchLayoutShifts(context);
    await use(context);
  },
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
  stockedPage: async ({ browser, stocked, viewport }, use) => {
    await usePageOf(browser, stocked, viewport, use);
  },
  newcomerPage: async ({ browser, newcomer, viewport }, use) => {
    await usePageOf(browser, newcomer, viewport, use);
  },
});

/** A page of the user's session in a context of its own, held to no uncaught errors too. */
async function usePageOf(
  browser: Browser,
  user: SignedInUser,
  viewport: ViewportSize | null,
  use: (page: Page) => Promise<void>,
) {
  const context = await browser.newContext({ storageState: user.storageState, viewport });
  const errors = uncaughtErrorsOf(context);
  await watchLayoutShifts(context);
  await use(await context.newPage());
  await context.close();
  expect(errors, 'uncaught errors in the page').toEqual([]);
}

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

/** Google's "good" CLS is 0.1; we hold every screen to a tenth of that. */
const MAX_LAYOUT_SHIFT = 0.01;

/**
 * Checks the layout shift so far, saves the screenshot when asked (`<screen>-<width>.png`) and
 * runs axe. `viewportOnly` is for a modal over a long page.
 */
async function capture(page: Page, screen: string, options: { viewportOnly?: boolean } = {}) {
  const { width } = page.viewportSize()!;
  const shift = await layoutShift(page);
  expect(
    shift.score,
    `layout shift of ${screen} at ${width}px:\n${shift.shifts.join('\n')}`,
  ).toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
  if (savePictures) {
    await page.screenshot({
      path: `e2e/artifacts/screens/${screen}-${width}.png`,
      fullPage: !options.viewportOnly,
      animations: 'disabled',
    });
  }
  await expectNoSeriousA11yViolations(page, `${screen} (${width}px wide)`);
}

for (const size of WIDTHS) {
  test.describe(`${size.width}px wide`, () => {
    test.use({ viewport: size });

    test('login', async ({ page }) => {
      await page.goto('/auth/login');
      await expect(page.getByText('Welcome Back!')).toBeVisible();
      await capture(page, 'login');
    });

    test('signup, empty and with validation messages', async ({ page }) => {
      await page.goto('/auth/signup');
      await expect(page.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
      await capture(page, 'signup');
      // As a user starts: in a field, which fetches the validation code (lib/forms/form.ts preload), so
      // the messages answer the click at once instead of whenever a lazy chunk arrives.
      await page.getByLabel('Name').focus();
      await page.waitForLoadState('networkidle');
      await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
      await expect(page.getByText('Confirm Password is required')).toBeVisible();
      await capture(page, 'signup-errors');
    });

    test('confirm account', async ({ page }) => {
      await page.goto('/auth/confirm-account?email=someone%40example.test');
      await expect(page.getByText('Enter the 6-digit code sent to your email')).toBeVisible();
      await capture(page, 'confirm');
    });

    test('resend code', async ({ page }) => {
      await page.goto('/auth/new-code');
      await expect(page.getByRole('heading', { name: 'Resend Confirmation Code' })).toBeVisible();
      await capture(page, 'new-code');
    });

    test('forgot password', async ({ page }) => {
      await page.goto('/auth/forgot-password');
      await expect(page.getByRole('heading', { name: 'Forgot Password?' })).toBeVisible();
      await capture(page, 'forgot-password');
    });

    test('reset password: code, then the new-password form', async ({ page, api }) => {
      const account = await api.signUpAndConfirm(newAccount('reset'));
      const since = Date.now();
      await page.request.post('/api/auth/forgot-password', { data: { email: account.email } });
      const code = await readCode(account.email, { subject: /reset/i, since });
      await page.goto(`/auth/reset-password?email=${encodeURIComponent(account.email)}`);
      await expect(codeBoxes(page)[0]!).toBeVisible();
      await capture(page, 'reset-code');
      await typeCode(page, code);
      await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
      await capture(page, 'reset-password');
    });

    test('product list', async ({ stockedPage: page }) => {
      await page.goto('/');
      await expect(productCard(page, 'Oak crate')).toBeVisible();
      await expect(productCard(page, 'Sold-out tray')).toBeVisible();
      await capture(page, 'products');
    });

    test('product list, painted before its page was read whole', async ({ stockedPage: page }) => {
      // A browser paints what it has read of a page whenever its reading pauses (a slow
      // connection, a busy phone). Held after each start tag of the header in turn, the first
      // screen must not move once the rest is read: once, the header painted with a part of its
      // buttons gave the title their room, then took it back.
      const html = await (await page.request.get('/')).text();
      for (const at of startTagsBetween(html, '<main', 'Loading products')) {
        await openReadInTwo(page, '/', at);
        await expect(productCard(page, 'Oak crate')).toBeVisible();
        const shift = await layoutShift(page);
        const where = html.slice(at - 60, at);
        expect(
          shift.score,
          `layout shift, painted after ${where}:\n${shift.shifts.join('\n')}`,
        ).toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
      }
    });

    test('empty product list', async ({ newcomerPage: page }) => {
      await page.goto('/');
      await expect(page.getByText('No products', { exact: true })).toBeVisible();
      await capture(page, 'products-empty');
    });

    test('user menu', async ({ stockedPage: page, stocked }) => {
      await page.goto('/');
      await userMenuButton(page, stocked.account.name).click();
      await expect(page.getByRole('menuitem', { name: 'My Profile' })).toBeVisible();
      await capture(page, 'user-menu', { viewportOnly: true });
    });

    test('delete dialog', async ({ stockedPage: page }) => {
      await page.goto('/');
      await productCard(page, 'Steel bin')
        .getByRole('button', { name: 'Delete Steel bin' })
        .click();
      await expect(page.getByRole('dialog').getByText('Are you sure?')).toBeVisible();
      await capture(page, 'delete-dialog', { viewportOnly: true });
    });

    test('product table', async ({ stockedPage: page }) => {
      test.skip(size.width < 1024, 'below 1024 px the list is always cards');
      await page.goto('/?view=table');
      await expect(page.getByRole('rowheader', { name: 'Oak crate' })).toBeVisible();
      await capture(page, 'products-table');
    });

    test('bulk delete dialog', async ({ stockedPage: page }) => {
      await page.goto('/');
      // On a phone the bulk bar shows once a product is chosen.
      await page.getByRole('checkbox', { name: 'Select Oak crate' }).check();
      await page.getByRole('checkbox', { name: 'Select all on page' }).check();
      await page.getByRole('button', { name: 'Delete selected' }).click();
      await expect(page.getByRole('dialog').getByText('Are you sure?')).toBeVisible();
      await capture(page, 'bulk-delete-dialog', { viewportOnly: true });
    });

    test('import products, empty and with a checked file', async ({ stockedPage: page }) => {
      await page.goto('/products/import');
      await expect(page.getByRole('heading', { name: 'Import Products' })).toBeVisible();
      await capture(page, 'import');
      const csv = [
        'name,price,stock,description',
        'Brass hook,4.5,40,"A brass hook, for coats"',
        'Wall shelf,,3,Oak',
        'Jute rug,79,2,',
      ].join('\n');
      await page.getByLabel('CSV file').setInputFiles({
        name: 'catalogue.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await expect(page.getByText(T.importCheckedWithErrors(1, 2))).toBeVisible();
      await capture(page, 'import-report');
    });

    test('create product, empty and with validation messages', async ({ stockedPage: page }) => {
      await page.goto('/new/product');
      await expect(page.getByRole('heading', { name: 'Create New Product' })).toBeVisible();
      await capture(page, 'create');
      await page.getByRole('button', { name: 'Create Product' }).click();
      await expect(page.getByText('Description is required')).toBeVisible();
      await capture(page, 'create-errors');
    });

    test('product detail', async ({ stockedPage: page, stocked }) => {
      await page.goto(`/details/product/${stocked.productId}`);
      await expect(page.getByText('Product ID')).toBeVisible();
      await capture(page, 'detail');
    });

    test('product not found', async ({ stockedPage: page }) => {
      await page.goto(`/details/product/${randomUUID()}`);
      await expect(page.getByText(M.productNotFound)).toBeVisible();
      await capture(page, 'detail-not-found');
    });

    test('edit product', async ({ stockedPage: page, stocked }) => {
      await page.goto(`/edit/product/${stocked.productId}`);
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Oak crate');
      await capture(page, 'edit');
    });

    test('scan, without a camera and with an unknown code', async ({ stockedPage: page }) => {
      await page.goto('/scan');
      await expect(page.getByText(/type the code below/i)).toBeVisible();
      await capture(page, 'scan');
      await page.getByLabel('Type a code').fill('4006381333931');
      await page.getByRole('button', { name: 'Find' }).click();
      await expect(page.getByText('No product has this code')).toBeVisible();
      await capture(page, 'scan-unknown');
    });

    test('profile', async ({ stockedPage: page, stocked }) => {
      await page.goto('/profile');
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue(stocked.account.name);
      await capture(page, 'profile');
    });

    test('change password', async ({ stockedPage: page }) => {
      await page.goto('/profile/new-password');
      await expect(page.getByLabel('Current Password', { exact: true })).toBeVisible();
      await capture(page, 'change-password');
    });
  });
}
