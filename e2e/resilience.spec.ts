import type { BrowserContext, Page, Route } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { expect, test } from './support/fixtures.js';
import { stockQueueReady } from './support/stock-queue.js';
import { cardTitleLink, productCard, productCards } from './support/ui.js';

/** The two ways a request fails: no connection at all, or a server that answers 503. */
const FAILURES = ['offline', '503'] as const;
type Failure = (typeof FAILURES)[number];

/** What a failed request reports, by failure. */
const FAILED: Record<Failure, RegExp> = {
  offline: /^The server cannot be reached/,
  '503': /^The request failed \(503\)|unavailable/i,
};

/** Every API request from now on fails the given way; the returned function ends it. */
async function cutOff(page: Page, context: BrowserContext, failure: Failure) {
  if (failure === 'offline') {
    await context.setOffline(true);
    return () => context.setOffline(false);
  }
  await page.route('**/api/**', (route) => route.fulfill({ status: 503, body: '' }));
  return () => page.unroute('**/api/**');
}

const afterRender = (page: Page) =>
  page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );

/** A product of the list that these tests change or open. */
const OAK = { name: 'Oak crate', price: 12.5, stock: 3, description: 'Oak.' };

/** The code of a product page's activity, its own chunk. */
const ACTIVITY_CODE = /\/assets\/ProductActivity-[\w-]+\.js$/;

/** Where a screen (not a toast) says why it has nothing to show. */
const failureAlert = (page: Page, failure: Failure) =>
  page.getByRole('main').getByRole('alert').filter({ hasText: FAILED[failure] });

const stockFilter = (page: Page) => page.getByRole('group', { name: 'Stock filter' });
const summary = (page: Page) => page.getByText('Total units').locator('..');

for (const failure of FAILURES) {
  test(`a stock change that fails (${failure}) waits to be sent, then goes once; the list stays`, async ({
    page,
    context,
    api,
    token,
    createProduct,
    signIn,
  }) => {
    const oak = await createProduct(OAK);
    await createProduct({ name: 'Pine shelf', price: 40, stock: 2, description: 'Pine.' });
    // The page's clock runs as usual, and can be moved on to the queue's next try.
    await page.clock.install();
    await signIn();
    const card = productCard(page, 'Oak crate');
    await expect(card.getByText(/^3 units$/)).toBeVisible();
    await expect(summary(page)).toContainText('5');
    // A change that gets no answer is kept once the queue has started.
    await stockQueueReady(page);

    const reconnect = await cutOff(page, context, failure);
    await card.getByRole('button', { name: 'Increase stock of Oak crate' }).click();
    // Kept on the device and shown as waiting: the screen keeps what it had around it.
    await expect(card).toContainText('+1 waiting to be sent');
    await expect(card.getByText(/^4 units$/)).toBeVisible();
    await afterRender(page);
    await expect(productCards(page)).toHaveCount(2);
    await expect(stockFilter(page)).toBeVisible();
    await expect(summary(page)).toContainText('5');
    await expect(failureAlert(page, failure)).toHaveCount(0);

    await reconnect();
    // The queue sends again on the browser's 'online' event, or on its own every 15 seconds.
    if (failure === '503') await page.clock.fastForward(15_000);
    await expect(card).not.toContainText('waiting to be sent');
    const stock = async () => ((await api.getProduct(token, oak.id)) as { stock: number }).stock;
    await expect.poll(stock).toBe(4);
    const moves = await api.movements(token, oak.id);
    expect(moves.map(({ delta }) => delta)).toEqual([1, 3]);
  });

  test(`filter tabs stay usable (${failure}): back to All shows what was loaded`, async ({
    page,
    context,
    createProduct,
    signIn,
  }) => {
    await createProduct(OAK);
    await signIn();
    await expect(productCards(page)).toHaveCount(1);

    await cutOff(page, context, failure);
    await stockFilter(page).getByRole('button', { name: 'Out of stock' }).click();
    // The filter's products could not be read: said where they would be, with the tabs above.
    await expect(failureAlert(page, failure)).toBeVisible({ timeout: 15_000 });
    await expect(stockFilter(page)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'list that could not be read');

    await stockFilter(page).getByRole('button', { name: 'All' }).click();
    await expect(productCard(page, 'Oak crate')).toBeVisible();
    await expect(summary(page)).toContainText('3');
  });

  test(`a product that failed to load (${failure}) shows by itself once the server is back`, async ({
    page,
    context,
    createProduct,
    signIn,
  }) => {
    await createProduct(OAK);
    await createProduct({ ...OAK, name: 'Pine crate' });
    // The page's clock runs as usual, and can be moved on to the screen's next try.
    await page.clock.install();
    await signIn();
    // Another product's page was opened once, so the page's code is in the browser (a screen
    // never opened has no code offline until the app can be installed), not this product. All
    // but its activity, asked for once the page is drawn: the user left before it came (held
    // here until the connection is gone, as it once was by chance and took the screen down).
    const held: Route[] = [];
    await page.route(ACTIVITY_CODE, (route) => void held.push(route));
    await cardTitleLink(productCard(page, 'Pine crate')).click();
    await expect(page.getByRole('heading', { name: 'Pine crate', level: 1 })).toBeVisible();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await page.goBack();
    await expect(productCard(page, 'Oak crate')).toBeVisible();
    const restore = await cutOff(page, context, failure);
    for (const route of held) {
      if (failure === 'offline') await route.abort('internetdisconnected');
      else await route.fallback();
    }
    await page.unroute(ACTIVITY_CODE);
    await cardTitleLink(productCard(page, 'Oak crate')).click();
    if (failure === 'offline') {
      // Offline, what the list knew of it stands, said to be what was loaded, steady; its
      // history is what could not be read.
      await expect(page.getByRole('heading', { name: 'Oak crate', level: 1 })).toBeVisible();
      await expect(page.getByText(/^Offline: showing what was loaded/)).toBeVisible();
      await expect(page.getByText('The stock history is not available offline.')).toBeVisible();
    } else {
      await expect(failureAlert(page, failure)).toBeVisible({ timeout: 15_000 });
    }

    await restore();
    // No click: the screen tries again on its own, on the browser's 'online' event or every
    // 5 seconds while the server is away; the activity's code comes then too.
    if (failure === '503') await page.clock.fastForward(5_000);
    await expect(page.getByRole('heading', { name: 'Oak crate', level: 1 })).toBeVisible({
      timeout: 15_000,
    });
    await expect(failureAlert(page, failure)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Activity', level: 2 })).toBeVisible();
  });
}
