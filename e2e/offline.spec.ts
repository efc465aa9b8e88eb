import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import {
  cardTitleLink,
  logInThroughForm,
  openUserMenuItem,
  productCard,
  toast,
  userMenuButton,
} from './support/ui.js';

/**
 * The installed app: its manifest and service worker, the screens a user saw readable offline in
 * a new tab (the query cache saved in IndexedDB, the shell and pictures from the worker's caches),
 * nothing of that left for the next user, and a new version offered, never forced.
 */

test.use({ serviceWorkers: 'allow' });

const OFFLINE_MARK = /^Offline: showing what was loaded at \d{1,2}:\d{2}/;

/** Until the service worker controls the page (it claims the first visit's page once active). */
async function waitForServiceWorker(page: Page) {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), {
      timeout: 20_000,
    })
    .toMatch(/\/sw\.js$/);
}

/** The keys of the query caches saved for offline reading (one per user id). */
const savedCaches = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('stockroom-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queries')) return resolve([]);
          const keys = db.transaction('queries').objectStore('queries').getAllKeys();
          keys.onsuccess = () => resolve(keys.result.map(String));
          keys.onerror = () => reject(keys.error);
        };
      }),
  );

/** What the saved cache holds, as text: enough to tell whose products are in it. */
const savedText = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('stockroom-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queries')) return resolve('');
          const all = db.transaction('queries').objectStore('queries').getAll();
          all.onsuccess = () => resolve(JSON.stringify(all.result));
          all.onerror = () => reject(all.error);
        };
      }),
  );

const cachedPictures = (page: Page) =>
  page.evaluate(async () =>
    (await caches.has('images'))
      ? (await (await caches.open('images')).keys()).map((request) => request.url)
      : [],
  );

/** A new tab of the context, offline, showing `path`. */
async function openOffline(context: BrowserContext, path: string) {
  const tab = await context.newPage();
  await tab.goto(path);
  return tab;
}

test('the manifest is linked and valid, and the service worker controls the page', async ({
  page,
  context,
  signIn,
  request,
}) => {
  await signIn();
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const response = await request.get(href!);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    scope: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({
    name: 'Stockroom',
    short_name: 'Stockroom',
    start_url: '/',
    scope: '/',
    display: 'standalone',
  });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.icons.map(({ sizes, purpose }) => `${sizes} ${purpose}`).sort()).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of manifest.icons) {
    const png = await request.get(icon.src);
    expect(png.status(), icon.src).toBe(200);
    const bytes = await png.body();
    // The PNG signature, then the IHDR chunk's width and height.
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    const [width, height] = icon.sizes.split('x').map(Number);
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([width, height]);
  }

  const worker = await request.get('/sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(worker.headers()['content-type']).toMatch(/javascript/);
  await waitForServiceWorker(page);
  // A page opened now is served by the worker from the first request on.
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // Chromium's own installability check (what its install prompt and Lighthouse relied on). A test
  // context is an incognito profile, where nothing installs: that one reason is expected.
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map(({ errorId }) => errorId)).toEqual(['in-incognito']);
});

test('the screens a user saw open offline in a new tab, with the time of their data', async ({
  page,
  context,
  signIn,
  createProduct,
}) => {
  const product = await createProduct({
    name: 'Offline Lantern',
    price: 12.5,
    stock: 7,
    description: 'Read without a connection.',
    image: 'shelf',
  });
  await signIn();
  await waitForServiceWorker(page);
  // Through the app's links, as a user goes: one page, one cache in memory.
  await cardTitleLink(productCard(page, product.name)).click();
  await expect(page.getByRole('heading', { name: product.name, level: 1 })).toBeVisible();
  const picture = page.getByRole('img', { name: product.name });
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await page.getByRole('banner').getByRole('link', { name: 'Scan' }).click();
  await expect(page.getByRole('heading', { name: 'Scan' })).toBeVisible();
  // Saved within a second of the last change: the list, the product and its stock history.
  await expect
    .poll(() => savedText(page))
    .toContain(`"queryKey":["editProduct","personal","${product.id}","movements"]`);
  await expect.poll(async () => (await cachedPictures(page)).length).toBeGreaterThan(0);

  await context.setOffline(true);
  const list = await openOffline(context, '/');
  await expect(productCard(list, product.name)).toBeVisible();
  await expect(list.getByText(OFFLINE_MARK)).toBeVisible();

  const details = await openOffline(context, `/details/product/${product.id}`);
  await expect(details.getByRole('heading', { name: product.name })).toBeVisible();
  await expect(details.getByText(OFFLINE_MARK)).toBeVisible();
  const offlinePicture = details.getByRole('img', { name: product.name });
  await expect
    .poll(() => offlinePicture.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);

  const scan = await openOffline(context, '/scan');
  await expect(scan.getByRole('heading', { name: 'Scan' })).toBeVisible();
  await expect(scan.getByText(OFFLINE_MARK)).toBeVisible();
});

test('offline, a product seen on the list opens from the list; online again, it recovers alone', async ({
  page,
  context,
  signIn,
  createProduct,
}) => {
  const opened = await createProduct({
    name: 'Opened Jug',
    price: 4,
    stock: 2,
    description: 'Opened once.',
  });
  const seen = await createProduct({
    name: 'Listed Kettle',
    price: 21.5,
    stock: 6,
    description: 'Only ever seen on the list.',
  });
  await signIn();
  await waitForServiceWorker(page);
  // The product screen's code is loaded once, through another product.
  await cardTitleLink(productCard(page, opened.name)).click();
  // The product screen's own heading: the card's, of the same name, is on the list already, and
  // a step back taken before the product screen's code came would leave the app.
  await expect(page.getByRole('heading', { name: opened.name, level: 1 })).toBeVisible();
  await page.goBack();
  await expect(productCard(page, seen.name)).toBeVisible();

  await context.setOffline(true);
  await cardTitleLink(productCard(page, seen.name)).click();
  await expect(page).toHaveURL(new RegExp(`/details/product/${seen.id}$`));
  await expect(page.getByRole('heading', { name: seen.name, level: 1 })).toBeVisible();
  await expect(page.getByText('$21.50').first()).toBeVisible();
  await expect(page.getByText('In Stock: 6')).toBeVisible();
  await expect(page.getByText('Only ever seen on the list.')).toBeVisible();

  // The connection comes back: what could not be read (its stock history) is read by itself.
  await context.setOffline(false);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByText(/cannot be reached/)).toHaveCount(0);
});

test('after a logout and a login as someone else, nothing of the first user is shown, not even offline', async ({
  page,
  context,
  api,
  signIn,
  createProduct,
  user,
}) => {
  const product = await createProduct({
    name: 'First User Secret',
    price: 3,
    stock: 1,
    description: 'Only the first user may see this.',
    image: 'tiny',
  });
  await signIn();
  await waitForServiceWorker(page);
  await page.goto(`/details/product/${product.id}`);
  await expect(page.getByRole('heading', { name: product.name })).toBeVisible();
  await expect.poll(() => savedText(page)).toContain(product.id);
  await expect.poll(async () => (await cachedPictures(page)).length).toBeGreaterThan(0);

  await openUserMenuItem(page, user.name, 'Logout');
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect.poll(() => savedCaches(page)).toEqual([]);
  await expect.poll(() => cachedPictures(page)).toEqual([]);

  const other = await api.signUpAndConfirm();
  await logInThroughForm(page, other);
  await expect(page.getByText(product.name)).toHaveCount(0);
  await expect.poll(() => savedCaches(page)).toHaveLength(1);
  expect(await savedText(page)).not.toContain(product.id);

  await context.setOffline(true);
  const list = await openOffline(context, '/');
  await expect(userMenuButton(list, other.name)).toBeVisible();
  await expect(list.getByText(OFFLINE_MARK)).toBeVisible();
  await expect(list.getByText(product.name)).toHaveCount(0);
  const details = await openOffline(context, `/details/product/${product.id}`);
  await expect(details.getByText(OFFLINE_MARK)).toBeVisible();
  await expect(details.getByText(product.name)).toHaveCount(0);
});

test('a new version is offered with a Reload button, and taken only when asked', async ({
  page,
  signIn,
}) => {
  await signIn();
  await waitForServiceWorker(page);
  // A release, as the browser sees one: the worker's script under another URL for the same scope,
  // which the browser installs beside the one in control and leaves waiting.
  await page.evaluate(() => navigator.serviceWorker.register('/sw.js?release=2', { scope: '/' }));
  const offer = toast(page, 'A new version is available');
  await expect(offer).toBeVisible({ timeout: 20_000 });
  // Not taken on its own: the old worker still controls the page, the new one waits.
  const workers = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return {
        controller: navigator.serviceWorker.controller?.scriptURL ?? null,
        waiting: registration?.waiting?.scriptURL ?? null,
      };
    });
  expect(await workers()).toEqual({
    controller: expect.stringMatching(/\/sw\.js$/),
    waiting: expect.stringMatching(/\/sw\.js\?release=2$/),
  });

  await Promise.all([
    page.waitForEvent('load'),
    offer.getByRole('button', { name: 'Reload' }).click(),
  ]);
  await expect.poll(async () => (await workers()).controller).toMatch(/\/sw\.js\?release=2$/);
});

test('a release that replaces the one offered is the one Reload takes', async ({
  page,
  signIn,
}) => {
  await signIn();
  await waitForServiceWorker(page);
  const waitingWorker = () =>
    page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration())?.waiting?.scriptURL ?? null,
    );
  await page.evaluate(() => navigator.serviceWorker.register('/sw.js?release=2', { scope: '/' }));
  const offers = toast(page, 'A new version is available');
  await expect(offers.first()).toBeVisible({ timeout: 20_000 });
  // Another release before the user answers: the first one waiting is replaced, never to run.
  await page.evaluate(() => navigator.serviceWorker.register('/sw.js?release=3', { scope: '/' }));
  await expect.poll(waitingWorker, { timeout: 20_000 }).toMatch(/\/sw\.js\?release=3$/);
  await page.waitForTimeout(500);
  await expect(offers, 'one offer, however many releases').toHaveCount(1);

  // The first offer still on screen takes the release waiting now.
  await Promise.all([
    page.waitForEvent('load'),
    offers.first().getByRole('button', { name: 'Reload' }).click(),
  ]);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null))
    .toMatch(/\/sw\.js\?release=3$/);
});
