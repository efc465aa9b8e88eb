import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { productCards } from './support/ui.js';

/**
 * The hook React DevTools installs before a page's scripts run: React DOM announces itself to it
 * (`inject`) as it starts. A stand-in with the same shape lets the test see what a developer with
 * DevTools would: which renderer, of which version, runs the page.
 */
function installDevToolsHook() {
  const renderers = new Map<number, { rendererPackageName?: string; version?: string }>();
  Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
    value: {
      renderers,
      supportsFiber: true,
      inject(renderer: { rendererPackageName?: string; version?: string }) {
        const id = renderers.size + 1;
        renderers.set(id, renderer);
        return id;
      },
      onCommitFiberRoot() {},
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
      checkDCE() {},
    },
  });
}

const renderersOf = (page: Page) =>
  page.evaluate(() => {
    const hook = (
      window as unknown as {
        __REACT_DEVTOOLS_GLOBAL_HOOK__: {
          renderers: Map<number, { rendererPackageName?: string; version?: string }>;
        };
      }
    ).__REACT_DEVTOOLS_GLOBAL_HOOK__;
    return [...hook.renderers.values()].map(({ rendererPackageName, version }) => ({
      rendererPackageName,
      version,
    }));
  });

/** React DOM 19, and nothing else, renders the page. */
async function expectReactDom19(page: Page) {
  await expect
    .poll(() => renderersOf(page))
    .toEqual([{ rendererPackageName: 'react-dom', version: expect.stringMatching(/^19\./) }]);
}

const signedOutScreens = [
  ['/auth/login', 'Welcome Back!'],
  ['/auth/signup', 'Create an Account'],
  ['/auth/forgot-password', 'Forgot Password?'],
  ['/auth/new-code', 'Resend Confirmation Code'],
  ['/auth/confirm-account?email=a%40example.com', 'Confirm your account'],
  ['/auth/reset-password?email=a%40example.com', 'Reset your password'],
] as const;

test.describe('React DevTools sees React DOM 19', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(installDevToolsHook);
  });

  for (const [url, heading] of signedOutScreens) {
    test(`on ${url}`, async ({ page }) => {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
      await expectReactDom19(page);
    });
  }

  test('on every signed-in screen', async ({ page, signIn, createProduct }) => {
    const product = await createProduct({
      name: 'Hooked lamp',
      price: 12,
      stock: 3,
      description: 'A lamp.',
    });
    await signIn();
    await expect(productCards(page)).toHaveCount(1);
    await expectReactDom19(page);
    for (const url of [
      `/details/product/${product.id}`,
      `/edit/product/${product.id}`,
      '/new/product',
      '/products/import',
      '/profile',
      '/profile/new-password',
    ]) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectReactDom19(page);
    }
  });
});

test('a screen names the browser tab through a rendered <title>', async ({ page }) => {
  await page.goto('/auth/login');
  await expect(page).toHaveTitle('Welcome Back! · Stockroom');
  await page.getByRole('link', { name: 'Create your Free account now' }).click();
  await expect(page).toHaveTitle('Create an Account · Stockroom');
});

/**
 * A normal visit asks nothing that fails: no 4xx or 5xx answer, no error in the console (a failed
 * request leaves "Failed to load resource" there), on the login page, the list and a product.
 */
test('a normal visit to login, the list and a product has no failed request', async ({
  page,
  createProduct,
  signIn,
}) => {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) {
      failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console: ${message.text()}`);
  });
  const product = await createProduct({
    name: 'Quiet lamp',
    price: 20,
    stock: 4,
    description: 'A lamp.',
    image: 'crate',
  });

  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await signIn();
  await expect(productCards(page)).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  await page.goto(`/details/product/${product.id}`);
  await expect(page.getByRole('heading', { name: 'Quiet lamp' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(failures).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the login page shows its heading, fields and links', async ({ page }) => {
    await page.goto('/auth/login');
    await expect(page.getByText('Welcome Back!')).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create your Free account now' })).toBeVisible();
  });

  test('the list shows the frame and its title while its code loads', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Stockroom' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
    await expect(page.getByText('A list of all the products in your inventory.')).toBeVisible();
    await expect(page.getByRole('main').getByRole('status')).toHaveText('Loading products...');
  });

  test("a product's page shows the frame and the product's skeleton", async ({ page }) => {
    await page.goto('/details/product/0f6e8a0c-0000-4000-8000-000000000000');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Stockroom' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('status')).toHaveText('Loading the product...');
  });

  test('any other signed-in screen shows the frame while its code loads', async ({ page }) => {
    await page.goto('/profile');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Stockroom' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('status')).toBeVisible();
  });
});

// As a real visit: the service worker registers too, and says nothing either.
test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  /**
   * The pages the build wrote become the app without a word from React: any warning or error in the
   * console (a hydration mismatch is one) fails.
   */
  test('every prerendered screen hydrates without a warning or an error', async ({
    page,
    signIn,
    createProduct,
  }) => {
    const messages: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        messages.push(`${page.url()}: ${message.text()}`);
      }
    });
    for (const [url, heading] of signedOutScreens) {
      await page.goto(url.split('?')[0]!);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
    }
    // Signed out, the list sends the visitor to the login screen; signed in, it shows the list.
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
    await signIn();
    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
    // A product's page: its pattern's page, written once for every product.
    const product = await createProduct({
      name: 'Hydrated lamp',
      price: 5,
      stock: 1,
      description: 'A lamp.',
      image: 'crate',
    });
    await page.goto(`/details/product/${product.id}`);
    await expect(page.getByRole('heading', { name: 'Hydrated lamp', level: 1 })).toBeVisible();
    expect(messages).toEqual([]);
  });
});
