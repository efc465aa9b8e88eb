import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { ENV, requireEnv } from './support/env.js';
import {
  browserFilming,
  drawBarcode,
  L7160_FIRST_LABEL,
  printedLabel,
} from './support/fake-camera.js';
import { expect, test } from './support/fixtures.js';
import { signInWithToken, toast } from './support/ui.js';

/**
 * The scan screen as a shop uses it: Chromium's fake camera films a label (a video the test
 * makes from a printed sheet or a drawn barcode), and a keyboard scanner types a code and Enter.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Coded {
  id: string;
  stock: number;
}

async function createCoded(
  request: APIRequestContext,
  token: string,
  fields: { name: string; stock: number; barcode?: string; sku?: string },
): Promise<Coded> {
  const response = await request.post('/api/products', {
    headers: bearer(token),
    data: { price: 4.5, description: 'A product with a code.', ...fields },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { product: Coded }).product;
}

async function stockOf(request: APIRequestContext, token: string, id: string) {
  const response = await request.get(`/api/products/${id}`, { headers: bearer(token) });
  return ((await response.json()) as { product: { stock: number; barcode: string | null } })
    .product;
}

/** The movements the scan screen recorded, oldest first, as `delta note`. */
async function notesOf(request: APIRequestContext, token: string, id: string) {
  const response = await request.get(`/api/products/${id}/movements`, { headers: bearer(token) });
  const { movements } = (await response.json()) as {
    movements: { delta: number; note: string | null }[];
  };
  return movements
    .filter(({ note }) => note?.startsWith('scan'))
    .map(({ delta, note }) => `${delta} ${note}`)
    .reverse();
}

async function printL7160(request: APIRequestContext, token: string, id: string) {
  const response = await request.get(`/api/products/labels.pdf?ids=${id}&layout=avery-l7160`, {
    headers: bearer(token),
  });
  expect(response.status()).toBe(200);
  return printedLabel(await response.body(), L7160_FIRST_LABEL);
}

/** The scan screen, signed in, in a browser whose camera films `picture`. */
async function scanScreenFilming(
  picture: Buffer,
  token: string,
  name: string,
): Promise<{ browser: Browser; page: Page }> {
  const browser = await browserFilming(picture);
  const context = await browser.newContext({
    baseURL: requireEnv(ENV.baseUrl),
    permissions: ['camera'],
  });
  const page = await context.newPage();
  await signInWithToken(page, token, name);
  await page.goto('/scan');
  return { browser, page };
}

const shownStock = (page: Page) => page.getByTestId('scan-stock');

test('a product’s barcode printed on an L7160 sheet, filmed, receives, picks and is undone', async ({
  request,
  user,
  token,
}) => {
  const product = await createCoded(request, token, {
    name: 'Printed crate',
    stock: 10,
    barcode: '4006381333931',
  });
  const label = await printL7160(request, token, product.id);
  const { browser, page } = await scanScreenFilming(label, token, user.name);
  try {
    // Receive is the first mode: the label in view adds one, once however long it stays.
    await expect(page.getByRole('button', { name: 'Receive' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByRole('link', { name: 'Printed crate' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(shownStock(page)).toHaveText('11');
    await page.waitForTimeout(2_000);
    expect((await stockOf(request, token, product.id)).stock).toBe(11);

    await page.getByRole('button', { name: 'Pick' }).click();
    await page.getByRole('button', { name: 'Again' }).click();
    await expect(shownStock(page)).toHaveText('10');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText('Undone')).toBeVisible();
    await expect(shownStock(page)).toHaveText('11');
    expect((await stockOf(request, token, product.id)).stock).toBe(11);
    expect(await notesOf(request, token, product.id)).toEqual([
      '1 scan',
      '-1 scan',
      '1 scan undone',
    ]);

    // The mode is remembered on this device.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Pick' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectNoSeriousA11yViolations(page, 'scan screen filming a label');
  } finally {
    await browser.close();
  }
});

test('an unknown code is given to a product, which the next look then finds', async ({
  request,
  user,
  token,
}) => {
  const product = await createCoded(request, token, { name: 'Nameless bin', stock: 3 });
  const { browser, page } = await scanScreenFilming(
    await drawBarcode('ean13', '5901234123457'),
    token,
    user.name,
  );
  try {
    await expect(page.getByText('No product has this code')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('5901234123457')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create product' })).toHaveAttribute(
      'href',
      '/new/product?barcode=5901234123457',
    );
    await page.getByRole('button', { name: 'Add to a product' }).click();
    await page.getByLabel('Find the product').fill('Nameless');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Nameless bin' }).click();
    await expect(page.getByText('The code is saved on Nameless bin.')).toBeVisible();
    expect((await stockOf(request, token, product.id)).barcode).toBe('5901234123457');

    await page.getByRole('button', { name: 'Again' }).click();
    await expect(shownStock(page)).toHaveText('4');
    expect((await stockOf(request, token, product.id)).stock).toBe(4);
  } finally {
    await browser.close();
  }
});

test('the QR code on the label of a product without a barcode opens that product', async ({
  request,
  user,
  token,
}) => {
  const product = await createCoded(request, token, { name: 'QR shelf', stock: 2 });
  const label = await printL7160(request, token, product.id);
  const { browser, page } = await scanScreenFilming(label, token, user.name);
  try {
    await expect(page).toHaveURL(new RegExp(`/details/product/${product.id}$`), {
      timeout: 30_000,
    });
    await expect(page.getByRole('heading', { name: 'QR shelf' })).toBeVisible();
    expect((await stockOf(request, token, product.id)).stock).toBe(2);
  } finally {
    await browser.close();
  }
});

/**
 * Types `code` and Enter (or `end`) as a keyboard scanner does: real key events, by default 5 ms
 * apart by their own timestamps (Chromium's input protocol takes the time of each event), so that
 * a loaded machine delivering them late does not make the scanner look like a person. `gaps` gives
 * the ms before each key instead (a busy phone's uneven burst); `end: null` sends no Enter.
 */
async function typeAsScanner(
  page: Page,
  code: string,
  { gaps, end = 'Enter' }: { gaps?: number[]; end?: 'Enter' | 'Tab' | null } = {},
) {
  const cdp = await page.context().newCDPSession(page);
  const keys = [...code].map((text) => ({ key: text, text, code: '', keyCode: 0 }));
  if (end === 'Enter') keys.push({ key: 'Enter', text: '\r', code: 'Enter', keyCode: 13 });
  if (end === 'Tab') keys.push({ key: 'Tab', text: '', code: 'Tab', keyCode: 9 });
  let at = Date.now();
  for (const [i, key] of keys.entries()) {
    at += i === 0 ? 0 : (gaps?.[i] ?? 5);
    const common = {
      key: key.key,
      code: key.code,
      windowsVirtualKeyCode: key.keyCode,
      timestamp: at / 1000,
    };
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', text: key.text, ...common });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
  }
  await cdp.detach();
}

/** How a busy phone delivered a burst: most keys at once, some up to 46 ms late. */
const BUSY_PHONE_GAPS = [0, 2, 46, 0, 1, 38, 4, 0, 0, 44, 12, 2, 5, 46];

test('a busy phone’s twelve fast scans all count, each with a sign; an odd burst is said', async ({
  page,
  request,
  user,
  token,
}) => {
  const product = await createCoded(request, token, {
    name: 'Burst jar',
    stock: 0,
    barcode: '4006381333931',
    sku: 'BURST-JAR',
  });
  await signInWithToken(page, token, user.name);
  await page.goto('/scan');
  await page.getByRole('button', { name: 'Receive' }).click();
  for (let i = 0; i < 12; i++)
    await typeAsScanner(page, '4006381333931', { gaps: BUSY_PHONE_GAPS });
  await expect(shownStock(page)).toHaveText('12');
  expect((await stockOf(request, token, product.id)).stock).toBe(12);
  // The session's tally: one line per product, the scans counted.
  const tally = page.getByRole('region', { name: 'This session' });
  await expect(tally).toContainText('12 scans');
  await expect(tally.getByRole('listitem')).toHaveText([/Burst jar\s*\+12/]);

  // A burst no Enter ended, and one with a space: not taken, and said.
  await typeAsScanner(page, '4006381333931', { end: null });
  await expect(page.getByText('Scan not read: “4006381333931”. Scan it again.')).toBeVisible();
  await typeAsScanner(page, '4006 381333931');
  await expect(page.getByText('Scan not read: “4006 381333931”. Scan it again.')).toBeVisible();
  expect((await stockOf(request, token, product.id)).stock).toBe(12);

  // An unknown code scanned on the list opens the scan screen to look up, not to receive: the
  // next known scan opens its product and adds nothing.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Burst jar' })).toBeVisible();
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await typeAsScanner(page, '96385074');
  await expect(page.getByText(/96385074/).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Look up' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await typeAsScanner(page, 'BURST-JAR', { end: 'Tab' });
  await expect(page).toHaveURL(new RegExp(`/details/product/${product.id}$`));
  expect((await stockOf(request, token, product.id)).stock).toBe(12);
});

test('Receive ×12 adds twelve with the next scan; the card shows photo, SKU and the tally', async ({
  page,
  request,
  user,
  token,
}) => {
  const product = await createCoded(request, token, {
    name: 'Case of jars',
    stock: 3,
    barcode: '4006381333931',
    sku: 'CASE-12',
  });
  await signInWithToken(page, token, user.name);
  await page.goto('/scan');
  await page.getByRole('button', { name: 'Receive' }).click();
  await page.getByLabel('Quantity for the next scan').fill('12');
  await page.keyboard.press('Escape');
  await typeAsScanner(page, '4006381333931');
  await expect(shownStock(page)).toHaveText('15');
  const card = page.getByTestId('scan-result');
  await expect(card.getByText('Added 12')).toBeVisible();
  await expect(card.getByRole('img', { name: 'Case of jars' })).toBeVisible();
  await expect(card.getByText('CASE-12')).toBeVisible();
  // The quantity was for that scan: the next adds one.
  await expect(page.getByLabel('Quantity for the next scan')).toHaveValue('1');
  await typeAsScanner(page, '4006381333931');
  await expect(shownStock(page)).toHaveText('16');
  const tally = page.getByRole('region', { name: 'This session' });
  await expect(tally).toContainText('2 scans');
  await expect(tally.getByRole('listitem')).toHaveText([/Case of jars\s*\+13/]);
  expect((await stockOf(request, token, product.id)).stock).toBe(16);
  await expectNoSeriousA11yViolations(page, 'scan screen with a tally');
});

test('a keyboard scanner finds the product on the list and receives on the scan screen', async ({
  page,
  request,
  user,
  token,
}) => {
  const product = await createCoded(request, token, {
    name: 'Keyed lamp',
    stock: 7,
    barcode: '012345678905',
    sku: 'keyed-lamp',
  });
  await signInWithToken(page, token, user.name);
  // Someone typing fast in the search is searching: text that is no product's code stays a search.
  await page.getByLabel('Search').focus();
  await typeAsScanner(page, 'keyed');
  await expect(page).toHaveURL(/\/\?q=keyed$/);
  await expect(page.getByRole('heading', { name: 'Keyed lamp' })).toBeVisible();
  await page.getByLabel('Search').fill('');
  await expect(page).toHaveURL(/\/$/);

  await page.getByLabel('Search').focus();
  await typeAsScanner(page, '012345678905');
  await expect(page).toHaveURL(new RegExp(`/details/product/${product.id}$`));
  await expect(page.getByRole('heading', { name: 'Keyed lamp' })).toBeVisible();

  await page.getByRole('link', { name: 'Scan', exact: true }).first().click();
  await expect(page).toHaveURL(/\/scan$/);
  // No camera in this browser: said plainly, with the field to type a code into.
  await expect(page.getByText(/type the code below/i)).toBeVisible();
  await expect(page.getByLabel('Type a code')).toBeVisible();
  await typeAsScanner(page, '0012345678905');
  await expect(shownStock(page)).toHaveText('8');
  expect((await stockOf(request, token, product.id)).stock).toBe(8);

  // Typed by hand: the field and Find.
  await page.getByLabel('Type a code').fill('012345678905');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(shownStock(page)).toHaveText('9');

  // Count: the scan finds the product, the number counted is typed, then Set.
  await page.getByRole('button', { name: 'Count' }).click();
  await typeAsScanner(page, 'KEYED-LAMP');
  await page.getByLabel('Counted').fill('20');
  await page.getByRole('button', { name: 'Set' }).click();
  await expect(shownStock(page)).toHaveText('20');
  expect((await stockOf(request, token, product.id)).stock).toBe(20);
  await expectNoSeriousA11yViolations(page, 'scan screen without a camera');
});

test('a code a keyboard scanner typed on the list that cannot be looked up is said, not dropped', async ({
  page,
  request,
  user,
  token,
}) => {
  await createCoded(request, token, { name: 'Away lamp', stock: 1, barcode: '012345678905' });
  await signInWithToken(page, token, user.name);
  await expect(page.getByRole('heading', { name: 'Away lamp' })).toBeVisible();
  await page.route('**/api/products/lookup?**', (route) => route.abort('connectionrefused'));
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await typeAsScanner(page, '012345678905');
  await expect(toast(page, /^The server cannot be reached/)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});
