import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { newAccount } from './support/accounts.js';
import { ENV, requireEnv } from './support/env.js';
import { browserFilming, L7160_FIRST_LABEL, printedLabel } from './support/fake-camera.js';
import { expect, test } from './support/fixtures.js';
import { signInWithToken } from './support/ui.js';

/**
 * The pictures at the top of the README, taken from the real app by the browser suite: the list on
 * a desktop and a product's details on a phone (and a shared catalogue's settings), written to e2e/artifacts/screens and copied to
 * docs/screenshots, where the README shows them. Only `npm run screenshots` (SCREENSHOTS=update)
 * runs this file: playwright.config.ts leaves it out of every other run.
 */
const artifacts = path.resolve(import.meta.dirname, 'artifacts', 'screens');
const committed = path.resolve(import.meta.dirname, '..', 'docs', 'screenshots');
const update = process.env.SCREENSHOTS === 'update';

const CATALOGUE = [
  ['Oak bookshelf', 149.0, 4, 'Solid oak, five shelves, 180 cm tall.', [166, 124, 82]],
  ['Desk lamp', 39.5, 27, 'Adjustable arm, warm white LED, USB-C powered.', [240, 196, 64]],
  ['Ceramic mug', 12.0, 0, 'Stoneware, 350 ml, dishwasher safe.', [90, 140, 170]],
  ['Wool throw', 64.99, 9, 'Merino wool, 130 × 170 cm, in forest green.', [46, 110, 76]],
  ['Wall clock', 45.0, 15, 'Silent sweep movement, 30 cm face.', [60, 60, 72]],
  ['Linen cushion', 24.0, 38, 'Washed linen cover with a feather insert.', [214, 196, 170]],
  ['Glass vase', 29.9, 6, 'Hand-blown, smoke grey, 25 cm.', [120, 128, 140]],
  ['Copper kettle', 89.0, 12, 'Stovetop, 1.5 litres, with a whistle.', [184, 115, 51]],
] as const;

/** A soft two-tone picture of the product's colour: enough to show what the cards look like. */
function picture([r, g, b]: readonly [number, number, number]) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <defs><radialGradient id="g" cx="50%" cy="45%" r="65%">
      <stop offset="0" stop-color="rgb(${Math.min(r + 60, 255)},${Math.min(g + 60, 255)},${Math.min(b + 60, 255)})"/>
      <stop offset="1" stop-color="rgb(${r},${g},${b})"/>
    </radialGradient></defs>
    <rect width="800" height="600" fill="url(#g)"/>
    <circle cx="400" cy="300" r="150" fill="rgba(255,255,255,0.25)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function save(page: import('@playwright/test').Page, name: string) {
  await mkdir(artifacts, { recursive: true });
  const file = path.join(artifacts, name);
  await page.screenshot({ path: file });
  if (update) {
    await mkdir(committed, { recursive: true });
    await copyFile(file, path.join(committed, name));
  }
}

test('README screenshots: the list on a desktop and a phone, a product on a phone', async ({
  page,
  request,
  user,
  token,
}) => {
  const ids: string[] = [];
  for (const [name, price, stock, description, colour] of CATALOGUE) {
    const response = await request.post('/api/products', {
      headers: { authorization: `Bearer ${token}` },
      multipart: {
        name,
        price: String(price),
        stock: String(stock),
        description,
        image: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await picture(colour) },
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    ids.push(((await response.json()) as { product: { id: string } }).product.id);
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInWithToken(page, token, user.name);
  await expect(page.getByRole('heading', { name: 'Copper kettle' })).toBeVisible();
  await expect(page.locator('main img').first()).toHaveJSProperty('complete', true);
  await page.waitForLoadState('networkidle');
  await save(page, 'list-desktop.png');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Copper kettle' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await save(page, 'list-phone.png');

  await page.goto(`/details/product/${ids[1]}`);
  await expect(page.getByRole('heading', { name: 'Desk lamp' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await save(page, 'detail-phone.png');
});

test('README screenshot: the scan screen on a phone, its camera on a printed label', async ({
  request,
  user,
  token,
}) => {
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/products', {
    headers,
    data: {
      name: 'Desk lamp',
      price: 39.5,
      stock: 27,
      description: 'Adjustable arm, warm white LED, USB-C powered.',
      barcode: '4006381333931',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = ((await created.json()) as { product: { id: string } }).product;
  const sheet = await request.get(`/api/products/labels.pdf?ids=${id}&layout=avery-l7160`, {
    headers,
  });
  const label = await printedLabel(await sheet.body(), L7160_FIRST_LABEL);
  const browser = await browserFilming(label);
  try {
    const context = await browser.newContext({
      baseURL: requireEnv(ENV.baseUrl),
      permissions: ['camera'],
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await signInWithToken(page, token, user.name);
    await page.goto('/scan');
    await expect(page.getByTestId('scan-stock')).toHaveText('28', { timeout: 30_000 });
    await save(page, 'scan-phone.png');
  } finally {
    await browser.close();
  }
});

test("README screenshot: a shared catalogue's settings on a desktop", async ({
  page,
  api,
  user,
  token,
}) => {
  const catalogueId = await api.createCatalogue(token, 'Corner shop');
  // Two teammates who joined (an admin and a stock clerk), and one invitation still pending.
  for (const [name, role] of [
    ['Grace Hopper', 'admin'],
    ['Alan Turing', 'stock'],
  ] as const) {
    const teammate = await api.signUpAndConfirm({ ...newAccount('team'), name });
    await api.invite(token, catalogueId, teammate.email, role);
    await api.acceptInvitation(await api.login(teammate));
  }
  await api.invite(token, catalogueId, 'ada@example.com', 'viewer');

  await page.setViewportSize({ width: 1440, height: 1200 });
  await signInWithToken(page, token, user.name);
  await page.goto(`/catalogues/${catalogueId}/settings`);
  await expect(page.getByText('Alan Turing', { exact: true })).toBeVisible();
  await expect(page.getByText('ada@example.com')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await save(page, 'catalogue-settings.png');
});
