import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { ENV, requireEnv } from './support/env.js';
import { browserFilming, L7160_FIRST_LABEL, printedLabel } from './support/fake-camera.js';
import { expect, test } from './support/fixtures.js';
import { stockQueueReady } from './support/stock-queue.js';
import { productCards, signInWithToken } from './support/ui.js';

/**
 * A bin labelled, its label filmed by Chromium's fake camera on a phone, and three products moved
 * into it by scanning, the network cut halfway: each move is made once, no total changes.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Place {
  locationId: string;
  quantity: number;
}

async function placesOf(request: APIRequestContext, token: string, id: string) {
  const response = await request.get(`/api/products/${id}`, { headers: bearer(token) });
  const { product } = (await response.json()) as {
    product: { stock: number; locations: Place[] };
  };
  return {
    stock: product.stock,
    places: Object.fromEntries(product.locations.map((p) => [p.locationId, p.quantity])),
  };
}

test('a bin labelled, scanned and filled with three products on a phone, offline halfway', async ({
  request,
  user,
  token,
  createProduct,
}) => {
  test.slow();
  const products = [
    await createProduct({
      name: 'Oak peg',
      price: 1,
      stock: 5,
      description: 'A peg.',
      sku: 'PEG-1',
    }),
    await createProduct({
      name: 'Brass hook',
      price: 2,
      stock: 4,
      description: 'A hook.',
      sku: 'HOOK-1',
    }),
    await createProduct({
      name: 'Steel nut',
      price: 3,
      stock: 6,
      description: 'A nut.',
      sku: 'NUT-1',
    }),
  ];
  // Elsewhere all along: not in the bin's list.
  await createProduct({ name: 'Pine dowel', price: 1, stock: 2, description: 'A dowel.' });
  const created = await request.post('/api/locations', {
    headers: bearer(token),
    data: { name: 'Bin 7' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const bin = ((await created.json()) as { location: { id: string; code: string } }).location;
  const tree = await request.get('/api/locations', { headers: bearer(token) });
  const main = (
    (await tree.json()) as { locations: { id: string; code: string; isDefault: boolean }[] }
  ).locations.find((location) => location.isDefault)!;

  // The bin's label, printed as a PDF and rendered as paper would show it: not blank.
  const pdf = await request.get(`/api/locations/labels.pdf?ids=${bin.id}&layout=avery-l7160`, {
    headers: bearer(token),
  });
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  const label = await printedLabel(await pdf.body(), L7160_FIRST_LABEL);
  const { channels } = await sharp(label).stats();
  expect(channels[0]?.min).toBeLessThan(64);

  const browser = await browserFilming(label);
  try {
    const context = await browser.newContext({
      baseURL: requireEnv(ENV.baseUrl),
      permissions: ['camera'],
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    // Count first: the bin in view only sets where the scans apply.
    await page.addInitScript(() => localStorage.setItem('scanMode', 'count'));
    await signInWithToken(page, token, user.name);
    await expect(page.getByText('Steel nut')).toBeVisible();
    await stockQueueReady(page);
    await page.getByRole('link', { name: 'Scan' }).first().click();

    const current = page.getByRole('region', { name: 'Current location' });
    await expect(current).toContainText('At Bin 7', { timeout: 30_000 });

    const typeCode = async (code: string) => {
      await page.getByLabel('Type a code').fill(code);
      await page.getByRole('button', { name: 'Find' }).click();
    };
    const move = page.getByRole('region', { name: 'Move' });
    const quantity = page.getByLabel('Quantity for the next scan');

    // Online: two products from Main into the bin, one transfer.
    await page.getByRole('button', { name: 'Move' }).click();
    await typeCode(main.code);
    await expect(move).toContainText('From Main');
    await quantity.fill('2');
    await quantity.press('Enter');
    await typeCode('PEG-1');
    await expect(move.getByRole('listitem').filter({ hasText: 'Oak peg' })).toContainText('2');
    await typeCode('HOOK-1');
    await expect(move.getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: 'Again', exact: true }).click();
    await expect(page.getByText('Moved 3 units of 2 products')).toBeVisible();

    // Offline: the third, kept in the queue.
    await context.setOffline(true);
    await typeCode(main.code);
    await expect(move).toContainText('From Main');
    await quantity.fill('4');
    await quantity.press('Enter');
    await typeCode('NUT-1');
    await expect(move.getByRole('listitem').filter({ hasText: 'Steel nut' })).toContainText('4');
    await page.getByRole('button', { name: 'Again', exact: true }).click();
    await expect(page.getByText('Waiting to be sent')).toBeVisible();
    expect((await placesOf(request, token, products[2]!.id)).places).toEqual({ [main.id]: 6 });

    await context.setOffline(false);
    await expect
      .poll(async () => (await placesOf(request, token, products[2]!.id)).places)
      .toEqual({ [main.id]: 2, [bin.id]: 4 });
    // Once each, whatever was resent: the totals never changed.
    expect(await placesOf(request, token, products[0]!.id)).toEqual({
      stock: 5,
      places: { [main.id]: 3, [bin.id]: 2 },
    });
    expect(await placesOf(request, token, products[1]!.id)).toEqual({
      stock: 4,
      places: { [main.id]: 3, [bin.id]: 1 },
    });
    expect((await placesOf(request, token, products[2]!.id)).stock).toBe(6);
    const activity = await request.get('/api/products/activity?kind=stock.transferred', {
      headers: bearer(token),
    });
    const { entries } = (await activity.json()) as { entries: unknown[] };
    expect(entries).toHaveLength(2);
    const binNow = await request.get(`/api/locations/${bin.id}`, { headers: bearer(token) });
    expect(((await binNow.json()) as { location: { units: number } }).location.units).toBe(7);

    // The bin's page lists the three; the list filtered by it shows them alone.
    await page.goto(`/locations/${bin.id}`);
    const held = page.getByRole('list', { name: 'What it holds' });
    await expect(held.getByRole('listitem')).toHaveText([/Brass hook/, /Oak peg/, /Steel nut/]);
    await page.getByRole('link', { name: 'See them in the list' }).click();
    await expect(page.getByRole('combobox', { name: 'Location' })).toHaveValue(bin.id);
    await expect(productCards(page)).toHaveCount(3);
    await expect(productCards(page).filter({ hasText: 'Pine dowel' })).toHaveCount(0);
  } finally {
    await browser.close();
  }
});
