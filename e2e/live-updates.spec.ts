import type { Page } from '@playwright/test';
import { newAccount } from './support/accounts.js';
import { expect, test } from './support/fixtures.js';
import { productCard } from './support/ui.js';

/** Waits until the page's live stream is open (it starts once the first screen has settled). */
const streamOpen = (page: Page) =>
  page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/events' && response.ok(),
  );

/** Reads GET /api/events in the page with this token for `ms`, and returns all it got. */
const listen = (page: Page, token: string, ms: number) =>
  page.evaluate(
    async ({ token, ms }) => {
      const stop = new AbortController();
      const response = await fetch('/api/events', {
        headers: { Authorization: `Bearer ${token}` },
        signal: stop.signal,
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      setTimeout(() => stop.abort(), ms);
      let text = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
      } catch {
        // Aborted: the time is up.
      }
      return text;
    },
    { token, ms },
  );

/** The status GET /api/events answers with, read from its headers (the stream never ends). */
async function eventsStatus(page: Page, token: string) {
  await page.goto('/api/health');
  return page.evaluate(async (token) => {
    const stop = new AbortController();
    const response = await fetch('/api/events', {
      headers: { Authorization: `Bearer ${token}` },
      signal: stop.signal,
    });
    stop.abort();
    return response.status;
  }, token);
}

test.beforeEach(async ({ page, token }, testInfo) => {
  // The server's side of live updates is built beside this client: until it is there, say so.
  testInfo.skip((await eventsStatus(page, token)) === 404, 'GET /api/events is not served yet');
});

test('a stock change in one signed-in browser shows in another of the same user within a second; another user sees nothing', async ({
  browser,
  page,
  api,
  user,
  token,
  createProduct,
  signIn,
}) => {
  const lamp = await createProduct({
    name: 'Brass lamp',
    price: 30,
    stock: 4,
    description: 'A lamp.',
  });
  const other = await browser.newContext();
  const second = await other.newPage();
  // Another user, signed in in a browser of their own, with a product of their own.
  const stranger = await api.signUpAndConfirm(newAccount());
  const strangerToken = await api.login(stranger);
  await api.createProduct(strangerToken, {
    name: 'Their kettle',
    price: 15,
    stock: 1,
    description: 'Not ours.',
  });
  const theirs = await browser.newContext();
  const strangerPage = await theirs.newPage();

  const opened = [streamOpen(page), streamOpen(second), streamOpen(strangerPage)];
  await signIn(user, page);
  await signIn(user, second);
  await signIn(stranger, strangerPage);
  await Promise.all(opened);

  // What the other user's stream carries meanwhile, read beside their app's own.
  const strangersStream = listen(strangerPage, strangerToken, 3_000);

  const answered = page.waitForResponse(
    (response) => response.url().endsWith(`/api/products/${lamp.id}/stock`) && response.ok(),
  );
  await productCard(page, 'Brass lamp')
    .getByRole('button', { name: 'Increase stock of Brass lamp' })
    .click();
  await answered;
  await expect(productCard(second, 'Brass lamp').getByText(/^5 units$/)).toBeVisible({
    timeout: 1_000,
  });

  // Changed elsewhere (the API, as another device): both lists follow, without a reload.
  await api.adjustStock(token, lamp.id, 10);
  await expect(productCard(page, 'Brass lamp').getByText(/^15 units$/)).toBeVisible({
    timeout: 1_000,
  });
  await expect(productCard(second, 'Brass lamp').getByText(/^15 units$/)).toBeVisible({
    timeout: 1_000,
  });

  const carried = await strangersStream;
  expect(carried).not.toContain(lamp.id);
  expect(carried).not.toContain('Brass lamp');
  await expect(productCard(strangerPage, 'Brass lamp')).toHaveCount(0);
  await expect(productCard(strangerPage, 'Their kettle').getByText(/^1 unit$/)).toBeVisible();
  await other.close();
  await theirs.close();
});

test('a product deleted elsewhere leaves the other browser’s list', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const crate = await createProduct({
    name: 'Oak crate',
    price: 9,
    stock: 2,
    description: 'A crate.',
  });
  await createProduct({ name: 'Pine box', price: 6, stock: 2, description: 'A box.' });
  const opened = streamOpen(page);
  await signIn();
  await opened;
  await expect(productCard(page, 'Oak crate')).toBeVisible();
  await api.deleteProduct(token, crate.id);
  await expect(productCard(page, 'Oak crate')).toHaveCount(0, { timeout: 1_000 });
  await expect(productCard(page, 'Pine box')).toBeVisible();
});

test('a change made between the first read and the stream’s start is shown', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const jar = await createProduct({ name: 'Honey jar', price: 7, stock: 8, description: 'A jar.' });
  // The list has read the jar at 8; the change lands before the stream asks for anything.
  let changed = false;
  await page.route('**/api/events', async (route) => {
    if (!changed) {
      changed = true;
      await api.adjustStock(token, jar.id, 5);
    }
    await route.continue();
  });
  const opened = streamOpen(page);
  await signIn();
  await expect(productCard(page, 'Honey jar').getByText(/^(8|13) units$/)).toBeVisible();
  await opened;
  expect(changed).toBe(true);
  await expect(productCard(page, 'Honey jar').getByText(/^13 units$/)).toBeVisible({
    timeout: 2_000,
  });
});
