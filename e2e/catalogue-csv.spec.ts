import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { T } from '../src/shared/messages.js';
import { newAccount } from './support/accounts.js';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { ENV, requireEnv } from './support/env.js';
import { expect, test } from './support/fixtures.js';
import { productCard, productCards, toast } from './support/ui.js';

/** A CSV file as the import screen's picker receives it. */
const csvFile = (name: string, text: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text, 'utf8'),
});

const importScreen = async (page: Page) => {
  await page.getByRole('link', { name: 'Import CSV' }).click();
  await expect(page).toHaveURL(/\/products\/import$/);
  await expect(page.getByRole('heading', { name: 'Import Products', level: 1 })).toBeVisible();
};

/** Drops a file on the import screen's drop zone, as a drag from the desktop does. */
async function dropFile(page: Page, file: ReturnType<typeof csvFile>) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, type, text }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type }));
      return transfer;
    },
    { name: file.name, type: file.mimeType, text: file.buffer.toString('utf8') },
  );
  const zone = page.getByText('or drag and drop it here');
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

test('import: a dry run with errors imports nothing; the fixed file imports every row', async ({
  page,
  api,
  token,
  signIn,
}) => {
  await signIn();
  await importScreen(page);

  // Line 3 has two bad cells; line 5 is one record over two lines (a quoted newline).
  const bad = [
    'description,name,stock,price,colour',
    'A lamp for the desk,Desk lamp,12,19.99,red',
    'A chair,Chair,-2,abc,blue',
    '"A rug, 2 by 3 metres",Rug,0,120,',
    '"A shelf',
    'in two lines",Shelf,4,45.5,',
  ].join('\n');
  await page.getByLabel('CSV file').setInputFiles(csvFile('catalogue.csv', bad));
  await expect(page.getByText(T.importCheckedWithErrors(3, 1))).toBeVisible();
  await expect(page.getByText('4 rows read, 2 errors.')).toBeVisible();
  const errors = page.getByRole('region', { name: 'Errors' }).getByRole('listitem');
  await expect(errors).toHaveText([
    /^Line 3\s*price\s*The price of the product is required$/,
    /^Line 3\s*stock\s*Stock cannot be negative$/,
  ]);
  const preview = page.getByRole('region', { name: 'First valid rows' }).getByRole('row');
  await expect(preview).toHaveCount(4);
  await expect(preview.nth(3)).toContainText('Shelf');
  await expect(page.getByRole('button', { name: /^Import \d/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'import with errors');
  expect(await api.listProducts(token)).toEqual([]);

  // The fixed file, dropped on the zone this time.
  await dropFile(page, csvFile('catalogue.csv', bad.replace('Chair,-2,abc', 'Chair,2,89')));
  await expect(page.getByText('4 products ready to import')).toBeVisible();
  await expect(page.getByRole('region', { name: 'First rows' }).getByRole('row')).toHaveCount(5);
  await page.getByRole('button', { name: 'Import 4 products' }).click();

  await expect(toast(page, '4 products imported')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(productCards(page)).toHaveCount(4);
  await expect(productCard(page, 'Rug').getByText('Out of Stock')).toBeVisible();
  await expect(productCard(page, 'Chair').getByText('$89.00')).toBeVisible();
  const stored = await api.listProducts(token);
  expect(
    stored.map(({ name, price, stock, description }) => ({ name, price, stock, description })),
  ).toEqual(
    expect.arrayContaining([
      { name: 'Shelf', price: 45.5, stock: 4, description: 'A shelf\nin two lines' },
      { name: 'Rug', price: 120, stock: 0, description: 'A rug, 2 by 3 metres' },
    ]),
  );
});

test('export: the download is the list as CSV (its filter applied), and imports back the same', async ({
  page,
  api,
  createProduct,
  signIn,
  browser,
}) => {
  const catalogue = [
    {
      name: 'Oak crate',
      price: 12.5,
      stock: 25,
      description: 'Sturdy, with "rope" handles, 40 cm',
    },
    { name: '=SUM(A1)', price: 3.99, stock: 4, description: 'Looks like a formula' },
    { name: 'Café table', price: 1234.5, stock: 0, description: 'Two lines:\nmarble top' },
  ];
  for (const product of catalogue) await createProduct(product);
  await signIn();
  await expect(productCards(page)).toHaveCount(3);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^stockroom-products-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile((await file.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8').slice(1);
  const lines = text.split('\r\n');
  expect(lines[0]).toBe(
    'id,name,price,stock,description,image,createdAt,updatedAt,sku,barcode,tags,cost,reorderPoint,reorderQuantity',
  );
  expect(text).toContain(',"Sturdy, with ""rope"" handles, 40 cm",');
  expect(text).toContain(",'=SUM(A1),3.99,4,");
  expect(text).toContain(',"Two lines:\nmarble top",');

  // The list's filter goes with it: out of stock only.
  await page.getByRole('button', { name: 'Out of stock' }).click();
  await expect(productCards(page)).toHaveCount(1);
  const filtered = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const outOfStock = (await readFile((await (await filtered).path())!)).toString('utf8');
  expect(outOfStock.trimEnd().split('\r\n')).toHaveLength(2);
  expect(outOfStock).toContain('Café table');

  // Imported into an empty account, the file gives back every name, price, stock, description.
  const other = await api.signUpAndConfirm(newAccount('export'));
  const context = await browser.newContext({ baseURL: requireEnv(ENV.baseUrl) });
  const otherPage = await context.newPage();
  const otherToken = await api.login(other);
  await otherPage.goto('/api/health');
  await otherPage.evaluate((value) => localStorage.setItem('AccessToken', value), otherToken);
  await otherPage.goto('/products/import');
  await otherPage.getByLabel('CSV file').setInputFiles((await file.path())!);
  await otherPage.getByRole('button', { name: 'Import 3 products' }).click();
  await expect(toast(otherPage, '3 products imported')).toBeVisible();
  const fields = (
    products: { name: string; price: number; stock: number; description: string }[],
  ) =>
    products
      .map(({ name, price, stock, description }) => ({ name, price, stock, description }))
      .sort((a, b) => a.name.localeCompare(b.name));
  expect(fields(await api.listProducts(otherToken))).toEqual(fields(catalogue));
  await context.close();
});

test('import that updates: matches update, skip or copy, the dry run counts, a template', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const lamp = await createProduct({
    name: 'Lamp',
    price: 12,
    stock: 5,
    description: 'A desk lamp.',
  });
  await signIn();
  await importScreen(page);

  // The template: the export's columns and an example row.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download a template CSV' }).click();
  const template = await download;
  expect(template.suggestedFilename()).toBe('stockroom-import-template.csv');
  const templateText = (await readFile((await template.path())!)).toString('utf8');
  expect(templateText.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
    'id,name,price,stock,description,image,createdAt,updatedAt,sku,barcode,tags,cost,reorderPoint,reorderQuantity',
  );

  // Lamp by its id, at a price written as a spreadsheet shows it; and a new product.
  const file = csvFile(
    'catalogue.csv',
    [
      'id,name,price,stock,description',
      `${lamp.id},Lamp,$14.00,9,A desk lamp.`,
      ',Mat,3,2,A door mat.',
    ].join('\n'),
  );
  await page.getByLabel('CSV file').setInputFiles(file);
  await expect(page.getByText(T.importPlanned(1, 1, 0))).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'First rows' }).getByRole('row').filter({ hasText: 'Lamp' }),
  ).toContainText('$14.00');
  await expect(page.getByRole('button', { name: 'Import 2 products' })).toBeVisible();

  const matches = page.getByLabel('Rows that match a product');
  await matches.selectOption('skip');
  await expect(page.getByText(T.importPlanned(1, 0, 1))).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import 1 product' })).toBeVisible();
  await matches.selectOption('copy');
  await expect(page.getByText(T.importChecked(2))).toBeVisible();
  // A dry run writes nothing.
  expect(await api.listProducts(token)).toHaveLength(1);

  await matches.selectOption('update');
  await expect(page.getByText(T.importPlanned(1, 1, 0))).toBeVisible();
  await page.getByRole('button', { name: 'Import 2 products' }).click();
  await expect(toast(page, T.importDone(1, 1, 0))).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(productCard(page, 'Lamp').getByText('$14.00')).toBeVisible();
  await expect(productCard(page, 'Lamp').getByText('9 units', { exact: true })).toBeVisible();
  const stored = await api.listProducts(token);
  expect(
    stored
      .map(({ name, price, stock }) => ({ name, price, stock }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  ).toEqual([
    { name: 'Lamp', price: 14, stock: 9 },
    { name: 'Mat', price: 3, stock: 2 },
  ]);
  expect(stored.find(({ name }) => name === 'Lamp')!.id).toBe(lamp.id);
});
