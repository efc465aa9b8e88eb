import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { expect, test as base } from './support/fixtures.js';
import { productCard, productCards, toast } from './support/ui.js';

const CATALOGUE = [
  { name: 'Lamp', price: 19.99, stock: 25 },
  { name: 'Chair', price: 89, stock: 4 },
  { name: 'Tray', price: 3.5, stock: 0 },
  { name: 'Rug', price: 120, stock: 10 },
  { name: 'Vase', price: 29.9, stock: 1 },
] as const;

const test = base.extend<{ stockedList: Page }>({
  /** The list of a user with CATALOGUE, signed in. */
  stockedList: async ({ page, createProduct, signIn }, use) => {
    for (const product of CATALOGUE) {
      // No 'a' in the description: a search for 'a' finds the names with one.
      await createProduct({ ...product, description: 'For the e2e list.' });
    }
    await signIn();
    await use(page);
  },
});

/** The list's URL state, whatever the order of its parameters. */
const listUrl = (page: Page) =>
  expect.poll(() => Object.fromEntries(new URL(page.url()).searchParams));

/** The summary's figures: { 'Total units', 'Stock value at price' }. */
async function summary(page: Page) {
  const terms = await page.getByRole('term').allTextContents();
  const figures = await page.getByRole('definition').allTextContents();
  return Object.fromEntries(terms.map((term, i) => [term, figures[i]]));
}

test('filters: to reorder and out of stock, kept in the URL with the search, and the summary follows', async ({
  stockedList: page,
}) => {
  await expect(productCards(page)).toHaveCount(5);
  expect(await summary(page)).toEqual({
    'Total units': '40',
    // 19.99×25 + 89×4 + 120×10 + 29.9×1, to the cent.
    'Stock value at price': '$2,085.65',
  });

  const filters = page.getByRole('group', { name: 'Stock filter' });
  // At or below the reorder point (10): Chair, Tray, Rug and Vase.
  await filters.getByRole('button', { name: 'To reorder' }).click();
  await listUrl(page).toEqual({ stock: 'reorder' });
  await expect(productCards(page)).toHaveCount(4);
  await expect(productCard(page, 'Lamp')).toHaveCount(0);
  await expect
    .poll(() => summary(page))
    .toEqual({
      'Total units': '15',
      'Stock value at price': '$1,585.90',
    });

  await page.getByLabel('Search').fill('a');
  await page.getByLabel('Sort by').selectOption('price-asc');
  await listUrl(page).toEqual({ stock: 'reorder', q: 'a', sort: 'price-asc' });
  await expect(productCards(page).getByRole('heading')).toHaveText(['Tray', 'Vase', 'Chair']);

  // The URL is the state: a reload shows the same.
  await page.reload();
  await expect(filters.getByRole('button', { name: 'To reorder' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByLabel('Search')).toHaveValue('a');
  await expect(productCards(page).getByRole('heading')).toHaveText(['Tray', 'Vase', 'Chair']);
  await expect
    .poll(() => summary(page))
    .toEqual({
      'Total units': '5',
      'Stock value at price': '$385.90',
    });

  await filters.getByRole('button', { name: 'Out of stock' }).click();
  await listUrl(page).toEqual({ stock: 'out', q: 'a', sort: 'price-asc' });
  await expect(productCards(page).getByRole('heading')).toHaveText(['Tray']);
  await expect
    .poll(() => summary(page))
    .toEqual({
      'Total units': '0',
      'Stock value at price': '$0.00',
    });
  await expectNoSeriousA11yViolations(page, 'list filtered');

  await filters.getByRole('button', { name: 'All' }).click();
  await listUrl(page).toEqual({ q: 'a', sort: 'price-asc' });
  await expect(productCards(page)).toHaveCount(4);
});

test('bulk delete: a Shift-click range, one confirmation naming the count, one request', async ({
  stockedList: page,
  api,
  token,
}) => {
  // Newest first: Vase, Rug, Tray, Chair, Lamp.
  await expect(productCards(page).getByRole('heading')).toHaveText([
    'Vase',
    'Rug',
    'Tray',
    'Chair',
    'Lamp',
  ]);
  const box = (name: string) => page.getByRole('checkbox', { name: `Select ${name}` });
  await box('Rug').click();
  await box('Chair').click({ modifiers: ['Shift'] });
  for (const name of ['Rug', 'Tray', 'Chair']) await expect(box(name)).toBeChecked();
  for (const name of ['Vase', 'Lamp']) await expect(box(name)).not.toBeChecked();
  await expect(page.getByText('3 selected')).toBeVisible();

  const bulkDeletes: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/products/bulk-delete')) bulkDeletes.push(request.postData()!);
  });
  await page.getByRole('button', { name: 'Delete selected' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Are you sure?')).toBeVisible();
  await expect(dialog.getByText('You will not be able to recover these 3 products!')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'bulk delete dialog');
  await dialog.getByRole('button', { name: 'Yes, delete 3 products!' }).click();
  await expect(toast(page, '3 products deleted')).toBeVisible();
  await expect(productCards(page).getByRole('heading')).toHaveText(['Vase', 'Lamp']);
  expect(bulkDeletes).toHaveLength(1);
  expect((JSON.parse(bulkDeletes[0]!) as { ids: string[] }).ids).toHaveLength(3);
  expect((await api.listProducts(token)).map(({ name }) => name).sort()).toEqual(['Lamp', 'Vase']);

  // 'Select all on page', then Cancel: nothing goes.
  await page.getByRole('checkbox', { name: 'Select all on page' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await expect(dialog.getByText('You will not be able to recover these 2 products!')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(productCards(page)).toHaveCount(2);
  expect(bulkDeletes).toHaveLength(1);
});

test.describe('the table view', () => {
  test('at 1280 px: a toggle kept in the URL, a dense table sorted by its columns', async ({
    stockedList: page,
  }) => {
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Table' }).click();
    await listUrl(page).toEqual({ view: 'table' });
    const table = page.getByRole('table');
    const names = table.getByRole('rowheader');
    await expect(names).toHaveText(['Vase', 'Rug', 'Tray', 'Chair', 'Lamp']);
    const chair = table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'Chair' }) });
    await expect(chair.getByText('$89.00')).toBeVisible();
    await expect(chair.getByText('4 units')).toBeVisible();
    await expect(chair.getByText('In stock · to reorder')).toBeVisible();
    await expect(chair.locator('img')).toBeVisible();
    // Dense: a row no taller than its stepper and picture need.
    expect((await chair.boundingBox())!.height).toBeLessThanOrEqual(64);

    await table.getByRole('button', { name: 'Price', exact: true }).click();
    await listUrl(page).toEqual({ view: 'table', sort: 'price-asc' });
    await expect(names).toHaveText(['Tray', 'Lamp', 'Vase', 'Chair', 'Rug']);
    await expect(table.getByRole('columnheader', { name: 'Price', exact: true })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await table.getByRole('button', { name: 'Price', exact: true }).click();
    await expect(names).toHaveText(['Rug', 'Chair', 'Vase', 'Lamp', 'Tray']);
    await table.getByRole('button', { name: 'Stock', exact: true }).click();
    await expect(names).toHaveText(['Tray', 'Vase', 'Chair', 'Rug', 'Lamp']);

    // The stepper works in a row.
    await chair.getByRole('button', { name: 'Increase stock of Chair' }).click();
    await expect(chair.getByText('5 units', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'product table');

    await page.reload();
    await expect(page.getByRole('table')).toBeVisible();
    await page.getByRole('button', { name: 'Cards' }).click();
    await listUrl(page).toEqual({ sort: 'stock-asc' });
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(productCards(page)).toHaveCount(5);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('at 390 px: cards only, no toggle, whatever the URL says', async ({
      stockedList: page,
    }) => {
      await page.goto('/?view=table');
      await expect(productCards(page)).toHaveCount(5);
      await expect(page.getByRole('table')).toHaveCount(0);
      await expect(page.getByRole('group', { name: 'View' })).toHaveCount(0);
      // Widened past 1024 px, the table the URL asks for appears.
      await page.setViewportSize({ width: 1100, height: 844 });
      await expect(page.getByRole('table')).toBeVisible();
    });
  });
});

test('tags and cost: chips that filter the list, the value at cost, both set in the form', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  await createProduct({
    name: 'Lamp',
    price: 19.99,
    stock: 10,
    description: 'For the e2e list.',
    cost: 8.5,
    tags: ['Lighting', 'Office'],
  });
  await createProduct({
    name: 'Rug',
    price: 120,
    stock: 2,
    description: 'For the e2e list.',
    tags: ['Home'],
  });
  await signIn();
  const lamp = productCard(page, 'Lamp');
  await expect(lamp.getByRole('list', { name: 'Tags' }).getByRole('link')).toHaveText([
    'Lighting',
    'Office',
  ]);
  // A cost is set: the stock is valued at cost (8.50 × 10; the rug has none).
  expect(await summary(page)).toEqual({ 'Total units': '12', 'Stock value at cost': '$85.00' });

  await lamp.getByRole('link', { name: 'Lighting' }).click();
  await listUrl(page).toEqual({ tag: 'Lighting' });
  await expect(productCards(page).getByRole('heading')).toHaveText(['Lamp']);
  await page.getByRole('button', { name: 'Show every tag' }).click();
  await expect(productCards(page)).toHaveCount(2);

  // Through the form: a cost and a tag.
  await page.getByRole('link', { name: 'Add product' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Mug');
  await page.getByLabel('Price', { exact: true }).fill('6');
  await page.getByLabel('Stock', { exact: true }).fill('4');
  await page.getByLabel('Description', { exact: true }).fill('A mug.');
  await page.getByLabel('Cost (optional)', { exact: true }).fill('2.50');
  await page.getByLabel('Tags (optional)', { exact: true }).fill('Office');
  await page.getByLabel('Tags (optional)', { exact: true }).press('Enter');
  await page.getByRole('button', { name: 'Create Product' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(
    productCard(page, 'Mug').getByRole('list', { name: 'Tags' }).getByRole('link'),
  ).toHaveText(['Office']);
  await expect
    .poll(() => summary(page))
    .toEqual({ 'Total units': '16', 'Stock value at cost': '$95.00' });
  const { id } = (await api.listProducts(token)).find(({ name }) => name === 'Mug')!;
  const mug = await api.getProduct(token, id);
  expect(mug).toMatchObject({ cost: 2.5, tags: ['Office'] });
});
