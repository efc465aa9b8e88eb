import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { expect, test } from './support/fixtures.js';

test('codes entered on edit show on the product, and Print labels opens the PDF', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const { id } = await createProduct({
    name: 'Brass hook',
    price: 3.5,
    stock: 12,
    description: 'A hook for the wall.',
  });
  await signIn();
  await page.goto(`/edit/product/${id}`);
  await page.getByLabel(/^SKU/).fill('HOOK-1');
  await page.getByLabel(/^Barcode/).fill('0012345678904');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  // The check digit is checked before anything is sent.
  await expect(page.getByText(/Barcode check digit is wrong/)).toBeVisible();
  await page.getByLabel(/^Barcode/).fill('0012345678905');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await api.getProduct(token, id)).toMatchObject({ sku: 'HOOK-1', barcode: '012345678905' });

  await page.goto(`/details/product/${id}`);
  const facts = page.locator('dl');
  await expect(facts.getByText('HOOK-1')).toBeVisible();
  await expect(facts.getByText('012345678905')).toBeVisible();

  await page.getByRole('button', { name: 'Print labels' }).click();
  const dialog = page.getByRole('dialog', { name: 'Print labels for this product' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Labels', { exact: true }).selectOption('label-2x1in');
  await dialog.getByLabel('Copies of each').fill('2');
  await expectNoSeriousA11yViolations(page, 'print labels dialog');
  const opened = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: 'Open PDF' }).click();
  const tab = await opened;
  await expect.poll(() => tab.url()).toMatch(/^blob:/);
  await expect(dialog).toBeHidden();
});
