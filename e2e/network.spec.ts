import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { fillLogin, loginButton, toast } from './support/ui.js';

test.use({ serviceWorkers: 'allow' });

/** What every request that cannot reach the server ends with. */
const UNREACHABLE = /^The server cannot be reached/;

const offlineBanner = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'You are offline' });

/** Counts the requests for the built chunks whose file names start with `prefix`, aborting them. */
async function abortChunk(page: Page, prefix: string) {
  const attempts: string[] = [];
  await page.route(`**/assets/${prefix}-*.js`, async (route) => {
    attempts.push(route.request().url());
    await route.abort('internetdisconnected');
  });
  return attempts;
}

test('login while offline: the banner says so, the busy state ends and the toast tells why', async ({
  page,
  context,
  user,
}) => {
  await page.goto('/auth/login');
  await fillLogin(page, user);
  await expect(offlineBanner(page)).toHaveCount(0);

  await context.setOffline(true);
  await expect(offlineBanner(page)).toBeVisible();
  await loginButton(page).click();
  await expect(toast(page, UNREACHABLE)).toBeVisible();
  await expect(loginButton(page)).toBeEnabled();
  await expect(page).toHaveURL(/\/auth\/login$/);

  // Back online: the banner goes and the same form works.
  await context.setOffline(false);
  await expect(offlineBanner(page)).toHaveCount(0);
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/$/);
});

test('login when the API cannot be reached (requests aborted): the busy state ends with the toast', async ({
  page,
  user,
}) => {
  await page.goto('/auth/login');
  await fillLogin(page, user);
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await loginButton(page).click();
  await expect(toast(page, UNREACHABLE)).toBeVisible();
  await expect(loginButton(page)).toBeEnabled();
});

test('create product while offline: refused at once as needing a connection, and the button comes back', async ({
  page,
  context,
  signIn,
}) => {
  await signIn();
  await page.goto('/new/product');
  await page.getByLabel('Name', { exact: true }).fill('Offline crate');
  await page.getByLabel('Price', { exact: true }).fill('12.50');
  await page.getByLabel('Stock', { exact: true }).fill('3');
  await page.getByLabel('Description', { exact: true }).fill('Made while the network was down.');

  await context.setOffline(true);
  const submit = page.getByRole('button', { name: 'Create Product' });
  await submit.click();
  // Not kept for later like a stock change: refused up front, saying why.
  await expect(toast(page, 'You are offline. Creating products needs a connection.')).toBeVisible();
  await expect(submit).toBeEnabled();

  await context.setOffline(false);
  await submit.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Offline crate' })).toBeVisible();
});

test('search while offline: the list stops spinning and says the server cannot be reached', async ({
  page,
  context,
  createProduct,
  signIn,
}) => {
  // Search shows on a catalogue with something in it.
  await createProduct({ name: 'Lamp', price: 5, stock: 2, description: 'A lamp.' });
  await signIn();
  await context.setOffline(true);
  await page.getByLabel('Search', { exact: true }).fill('anything');
  await page.getByLabel('Search', { exact: true }).press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: UNREACHABLE })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByRole('status').filter({ hasText: 'Loading products' })).toHaveCount(0);
});

test('search when the API is unreachable (requests aborted): the message replaces the spinner', async ({
  page,
  createProduct,
  signIn,
}) => {
  await createProduct({ name: 'Lamp', price: 5, stock: 2, description: 'A lamp.' });
  await signIn();
  await page.route('**/api/products?**', (route) => route.abort('connectionrefused'));
  await page.getByLabel('Search', { exact: true }).fill('anything');
  await page.getByLabel('Search', { exact: true }).press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: UNREACHABLE })).toBeVisible({
    timeout: 15_000,
  });
});

test('a screen whose chunk cannot be loaded is retried once, then explained with a Reload button', async ({
  page,
  user,
  signIn,
}) => {
  await signIn();
  const attempts = await abortChunk(page, 'ProfileForm');
  await page.getByRole('button', { name: `Hello ${user.name}` }).click();
  await page.getByRole('menuitem', { name: 'My Profile' }).click();

  await expect(
    page.getByRole('heading', { name: 'This screen could not be loaded' }),
  ).toBeVisible();
  const reload = page.getByRole('button', { name: 'Reload' });
  await expect(reload).toBeVisible();
  expect(attempts).toHaveLength(2);

  // The connection is back: Reload shows the screen.
  await page.unroute('**/assets/ProfileForm-*.js');
  await reload.click();
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
});

test('a form whose code cannot be loaded is retried once, then explained with a Reload button', async ({
  page,
  user,
}) => {
  // The HTTP client loads with the first request: that is the chunk that fails here.
  await page.goto('/auth/login');
  const attempts = await abortChunk(page, 'axios-instance');
  await fillLogin(page, user);
  await loginButton(page).click();
  const message = toast(page, /could not be loaded/);
  await expect(message).toBeVisible();
  await expect(message.getByRole('button', { name: 'Reload' })).toBeVisible();
  await expect(loginButton(page)).toBeEnabled();
  expect(attempts.length).toBeGreaterThanOrEqual(2);
});

test.describe('before the service worker has kept the app', () => {
  test.use({ serviceWorkers: 'block' });

  test('a screen opened while offline is explained, and shows by itself once the connection is back', async ({
    page,
    context,
    user,
    signIn,
  }) => {
    await signIn();
    // The screens the header leads to are fetched ahead once the first screen has settled and
    // the user acts on it (here, a press on the page's heading).
    await page.getByRole('heading', { name: 'Products', level: 1 }).click();
    await expect(page.locator('link[rel="modulepreload"][href*="/profile-"]').first()).toBeAttached(
      { timeout: 15_000 },
    );
    await context.setOffline(true);
    await expect(offlineBanner(page)).toBeVisible();
    await page.getByRole('button', { name: `Hello ${user.name}` }).click();
    await page.getByRole('menuitem', { name: 'My Profile' }).click();
    await expect(
      page.getByRole('heading', { name: 'This screen could not be loaded' }),
    ).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  });
});
