import type { Browser, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { stockQueueReady } from './support/stock-queue.js';
import { signInWithToken, toast } from './support/ui.js';

/** A phone, as elsewhere: 390 px wide, touch. */
const phone = (browser: Browser) =>
  browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });

/** The counted number of a product's line on a count's screen (Product, Location, Counted…). */
const countedOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(2);

async function typeCode(page: Page, code: string) {
  await page.getByLabel('Type a code').fill(code);
  await page.getByRole('button', { name: 'Find' }).click();
}

/** Opens /scan from the list (its products stay cached for offline), counting into the count. */
async function scanInto(page: Page, countName: string) {
  await stockQueueReady(page);
  await page.getByRole('link', { name: 'Scan' }).first().click();
  await page.getByRole('button', { name: 'Count', exact: true }).click();
  await page.getByLabel('Count into').selectOption({ label: countName });
}

test('two phones count one location, one offline for part of it; a desktop reviews and posts', async ({
  browser,
  request,
  api,
  user,
  token,
  createProduct,
}) => {
  const mug = await createProduct({
    name: 'Blue mug',
    price: 8,
    cost: 3,
    stock: 5,
    sku: 'MUG-1',
    description: 'A mug.',
  });
  const jar = await createProduct({
    name: 'Glass jar',
    price: 4,
    cost: 1,
    stock: 10,
    sku: 'JAR-1',
    description: 'A jar.',
  });
  const headers = { Authorization: `Bearer ${token}` };
  const { locations } = (await (await request.get('/api/locations', { headers })).json()) as {
    locations: { id: string; isDefault: boolean; path: string }[];
  };
  const main = locations.find((location) => location.isDefault)!;
  const started = await request.post('/api/counts', {
    headers,
    data: { name: 'Shelf count', scope: { kind: 'location', locationId: main.id } },
  });
  expect(started.status(), await started.text()).toBe(201);
  const { count } = (await started.json()) as { count: { id: string } };

  const first = await phone(browser);
  const second = await phone(browser);
  const desk = await browser.newContext();
  try {
    const [scanA, scanB] = [await first.newPage(), await second.newPage()];
    await signInWithToken(scanA, token, user.name);
    await signInWithToken(scanB, token, user.name);
    await scanInto(scanA, 'Shelf count');
    await scanInto(scanB, 'Shelf count');
    // Each phone also shows the count's lines, as they come in from either.
    const [linesA, linesB] = [await first.newPage(), await second.newPage()];
    await linesA.goto(`/counts/${count.id}`);
    await linesB.goto(`/counts/${count.id}`);
    await expect(linesA.getByText('Nothing counted yet.')).toBeVisible();

    // Phone A, online: two mugs. Phone B's list shows them.
    await typeCode(scanA, 'MUG-1');
    await expect(scanA.getByTestId('scan-line')).toHaveText('1');
    await typeCode(scanA, 'MUG-1');
    await expect(scanA.getByTestId('scan-line')).toHaveText('2');
    await expect(countedOf(linesB, 'Blue mug')).toHaveText('2', { timeout: 2_000 });

    // Phone B, offline: a jar scanned and its line set to 8, and one more mug: all kept.
    await second.setOffline(true);
    await typeCode(scanB, 'JAR-1');
    await expect(scanB.getByTestId('scan-result')).toContainText('Waiting to be sent');
    await scanB.getByLabel('Set the line to').fill('8');
    await scanB.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(scanB.getByTestId('scan-result')).toContainText('Line set');
    await typeCode(scanB, 'MUG-1');
    await expect(scanB.getByTestId('scan-line')).toHaveText('+1');
    await expect(countedOf(linesB, 'Glass jar')).toHaveCount(0);

    // Phone A counts on meanwhile: a third mug.
    await typeCode(scanA, 'MUG-1');
    await expect(scanA.getByTestId('scan-line')).toHaveText('3');
    await expect(countedOf(linesA, 'Blue mug')).toHaveText('3');
    await expect(countedOf(linesA, 'Glass jar')).toHaveCount(0);

    // Back online: B's lines go once, in order, and both phones show the same lines.
    await second.setOffline(false);
    for (const lines of [linesA, linesB]) {
      await expect(countedOf(lines, 'Blue mug')).toHaveText('4');
      await expect(countedOf(lines, 'Glass jar')).toHaveText('8');
    }
    // Once each: the server's lines are what was counted, however often the queue sent them.
    const read = await request.get(`/api/counts/${count.id}`, { headers });
    const { lines } = (await read.json()) as { lines: { productId: string; counted: number }[] };
    expect(Object.fromEntries(lines.map((line) => [line.productId, line.counted]))).toEqual({
      [mug.id]: 4,
      [jar.id]: 8,
    });

    // A desktop reviews and posts.
    const desktop = await desk.newPage();
    await signInWithToken(desktop, token, user.name);
    await desktop.goto(`/counts/${count.id}`);
    await desktop.getByRole('button', { name: 'Review' }).click();
    const differences = desktop.getByLabel('Differences');
    await expect(differences).toContainText('-3 units');
    await expect(differences).toContainText('-$5.00');
    await desktop.getByRole('button', { name: 'Post', exact: true }).click();
    await desktop.getByRole('button', { name: 'Yes, post it' }).click();
    await expect(toast(desktop, 'Count posted: 2 lines changed stock')).toBeVisible();
    await expect(desktop.getByText('Posted', { exact: true })).toBeVisible();

    expect(await api.getProduct(token, mug.id)).toMatchObject({ stock: 4 });
    expect(await api.getProduct(token, jar.id)).toMatchObject({ stock: 8 });
  } finally {
    await Promise.all([first.close(), second.close(), desk.close()]);
  }
});
