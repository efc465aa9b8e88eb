import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { STOCK_QUEUE_DB, stockQueueReady } from './support/stock-queue.js';
import { openUserMenuItem, productCard, toast } from './support/ui.js';

test.use({ viewport: { width: 390, height: 844 }, serviceWorkers: 'allow' });

/** Every change the browser keeps, of any user, as stored (IndexedDB, read directly). */
const storedChanges = (page: Page) =>
  page.evaluate(
    (name) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result
            .transaction('changes', 'readonly')
            .objectStore('changes')
            .getAll();
          all.onsuccess = () => resolve((all.result as unknown[][]).flat());
          all.onerror = () => reject(all.error);
        };
      }),
    STOCK_QUEUE_DB,
  );

/** Opens the phone card's stepper and presses − or + on it `times` times. */
async function step(page: Page, name: string, sign: '+' | '-', times: number) {
  const card = productCard(page, name);
  const toggle = card.getByRole('button', { name: `Adjust stock of ${name}` });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const button = card.getByRole('button', {
    name: `${sign === '+' ? 'Increase' : 'Decrease'} stock of ${name}`,
  });
  for (let i = 0; i < times; i += 1) await button.click();
}

/**
 * The service worker has installed (the app's code and shell are kept), so that a tab opened
 * from now on opens with the network off.
 */
const workerReady = (page: Page) =>
  page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

/**
 * Closes the tab and opens the list again in a new one while still offline, as a phone in a
 * basement does. Returns the function that brings the connection back.
 */
async function reopenOffline(context: BrowserContext, closed: Page) {
  await closed.close();
  const page = await context.newPage();
  await page.goto('/');
  return { page, reconnect: () => context.setOffline(false) };
}

test('five changes made offline on two products survive a closed tab and are applied once each', async ({
  page,
  context,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const mug = await createProduct({ name: 'Blue mug', price: 8, stock: 5, description: 'A mug.' });
  const jar = await createProduct({
    name: 'Glass jar',
    price: 4,
    stock: 10,
    description: 'A jar.',
  });
  await signIn();
  await stockQueueReady(page);
  await workerReady(page);

  await context.setOffline(true);
  await step(page, 'Blue mug', '+', 3);
  await step(page, 'Glass jar', '-', 2);
  // The stock shown includes what waits, and says so.
  await expect(productCard(page, 'Blue mug')).toContainText('+3 waiting to be sent');
  await expect(productCard(page, 'Blue mug').getByText(/^8 units$/)).toBeVisible();
  await expect(productCard(page, 'Glass jar')).toContainText('-2 waiting to be sent');
  await expect(productCard(page, 'Glass jar').getByText(/^8 units$/)).toBeVisible();
  const stockOf = async (id: string) =>
    ((await api.getProduct(token, id)) as { stock: number }).stock;
  expect([await stockOf(mug.id), await stockOf(jar.id)]).toEqual([5, 10]);

  const { page: reopened, reconnect } = await reopenOffline(context, page);
  await expect(productCard(reopened, 'Blue mug')).toContainText('+3 waiting to be sent');
  await expect(productCard(reopened, 'Glass jar')).toContainText('-2 waiting to be sent');
  expect([await stockOf(mug.id), await stockOf(jar.id)]).toEqual([5, 10]);

  await reconnect();
  await expect.poll(() => stockOf(mug.id)).toBe(8);
  await expect.poll(() => stockOf(jar.id)).toBe(8);
  await expect(reopened.getByText(/waiting to be sent/)).toHaveCount(0);
  await expect(productCard(reopened, 'Blue mug').getByText(/^8 units$/)).toBeVisible();
  // Each change once in the history: the creation, then one movement per change.
  const mugMoves = await api.movements(token, mug.id);
  expect(mugMoves.map(({ delta, newStock }) => [delta, newStock])).toEqual([
    [1, 8],
    [1, 7],
    [1, 6],
    [5, 5],
  ]);
  const jarMoves = await api.movements(token, jar.id);
  expect(jarMoves.map(({ delta, newStock }) => [delta, newStock])).toEqual([
    [-1, 8],
    [-1, 9],
    [10, 10],
  ]);
});

test('a waiting change whose product was deleted meanwhile is said and dropped', async ({
  page,
  context,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const crate = await createProduct({
    name: 'Oak crate',
    price: 12,
    stock: 4,
    description: 'A crate.',
  });
  await createProduct({ name: 'Pine box', price: 6, stock: 2, description: 'A box.' });
  await signIn();
  await stockQueueReady(page);

  await context.setOffline(true);
  await step(page, 'Oak crate', '-', 1);
  await step(page, 'Pine box', '+', 1);
  await expect(productCard(page, 'Oak crate')).toContainText('-1 waiting to be sent');
  // Another device deletes the crate while this one is offline.
  await api.deleteProduct(token, crate.id);

  await context.setOffline(false);
  await expect(
    toast(page, "Could not send -1 for 'Oak crate': the product was deleted."),
  ).toBeVisible();
  // The rest went on.
  await expect
    .poll(async () => (await api.listProducts(token)).map(({ name, stock }) => [name, stock]))
    .toEqual([['Pine box', 3]]);
  await expect(page.getByText(/waiting to be sent/)).toHaveCount(0);
});

test('logging out offline with changes waiting asks first; going on drops them', async ({
  page,
  context,
  api,
  token,
  user,
  createProduct,
  signIn,
}) => {
  const lamp = await createProduct({
    name: 'Desk lamp',
    price: 20,
    stock: 3,
    description: 'A lamp.',
  });
  await signIn();
  await stockQueueReady(page);
  await context.setOffline(true);
  await step(page, 'Desk lamp', '+', 2);
  await expect(productCard(page, 'Desk lamp')).toContainText('+2 waiting to be sent');
  expect(await storedChanges(page)).toHaveLength(2);

  const questions: string[] = [];
  page.once('dialog', (dialog) => {
    questions.push(dialog.message());
    void dialog.dismiss();
  });
  await openUserMenuItem(page, user.name, 'Logout');
  await expect
    .poll(() => questions)
    .toEqual(['2 stock changes have not been sent yet. Log out anyway?']);
  await expect(productCard(page, 'Desk lamp')).toContainText('+2 waiting to be sent');
  expect(await storedChanges(page)).toHaveLength(2);

  page.once('dialog', (dialog) => void dialog.accept());
  await openUserMenuItem(page, user.name, 'Logout');
  // Offline, the login screen's code may not come (without a service worker the browser shows
  // its own error page): what matters here is what is left when the user is back.
  await expect(page.getByText(/waiting to be sent/)).toHaveCount(0);
  await context.setOffline(false);
  // Signed in again, in a new tab: nothing is left to send. (This tab may be reloading by itself:
  // offline, the login screen's code did not come, and Chromium's error page loads again once
  // the connection is back, a navigation that would abort the sign-in's own.)
  const again = await context.newPage();
  await signIn(user, again);
  await stockQueueReady(again);
  expect(await storedChanges(again)).toEqual([]);
  await expect(again.getByText(/waiting to be sent/)).toHaveCount(0);
  expect(((await api.getProduct(token, lamp.id)) as { stock: number }).stock).toBe(3);
});

test('scans offline of a product already loaded wait too, and count once each when back', async ({
  page,
  context,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const mug = await createProduct({
    name: 'Tin mug',
    price: 3,
    stock: 5,
    description: 'A mug.',
    sku: 'TIN-MUG',
  });
  await signIn();
  await stockQueueReady(page);
  await page.getByRole('link', { name: 'Scan', exact: true }).first().click();
  const field = page.getByLabel('Type a code');
  await expect(field).toBeVisible();

  await context.setOffline(true);
  for (const expected of ['6', '7']) {
    await field.fill('tin-mug');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.getByTestId('scan-stock')).toHaveText(expected);
    await expect(page.getByText('Waiting to be sent')).toBeVisible();
  }
  expect(((await api.getProduct(token, mug.id)) as { stock: number }).stock).toBe(5);

  await context.setOffline(false);
  await expect
    .poll(async () => ((await api.getProduct(token, mug.id)) as { stock: number }).stock)
    .toBe(7);
  const moves = await api.movements(token, mug.id);
  expect(moves.map(({ delta, note }) => [delta, note])).toEqual([
    [1, 'scan'],
    [1, 'scan'],
    [5, null],
  ]);
});

test('a change the server applied but whose answer was lost is sent again and applied once', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const bowl = await createProduct({
    name: 'Clay bowl',
    price: 7,
    stock: 2,
    description: 'A bowl.',
  });
  await signIn();
  await stockQueueReady(page);
  const keys: (string | null)[] = [];
  const replayed: (string | null)[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith(`/api/products/${bowl.id}/stock`)) {
      replayed.push(response.headers()['idempotent-replayed'] ?? null);
    }
  });
  // The first request reaches the server, which applies it; its answer never comes back.
  await page.route(
    `**/api/products/${bowl.id}/stock`,
    async (route) => {
      keys.push(await route.request().headerValue('idempotency-key'));
      await route.fetch();
      await route.abort('connectionreset');
    },
    { times: 1 },
  );
  page.on('request', (request) => {
    if (request.url().endsWith(`/api/products/${bowl.id}/stock`) && keys.length > 0) {
      void request.headerValue('idempotency-key').then((key) => keys.push(key));
    }
  });

  await step(page, 'Clay bowl', '+', 1);
  await expect.poll(() => replayed).toEqual(['true']);
  await expect(page.getByText(/waiting to be sent/)).toHaveCount(0);
  expect(new Set(keys).size).toBe(1);
  expect(((await api.getProduct(token, bowl.id)) as { stock: number }).stock).toBe(3);
  expect((await api.movements(token, bowl.id)).map(({ delta }) => delta)).toEqual([1, 2]);
});
