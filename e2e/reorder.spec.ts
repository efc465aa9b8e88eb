import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { openUserMenuItem, productCard, productCards, toast } from './support/ui.js';

const stockFilter = (page: Page, name: RegExp) =>
  page.getByRole('group', { name: 'Stock filter' }).getByRole('button', { name });

test('a product’s own reorder point puts it under To reorder, kept in the URL', async ({
  page,
  createProduct,
  signIn,
}) => {
  const shelf = await createProduct({
    name: 'Shelf',
    price: 40,
    stock: 30,
    description: 'Plenty of them.',
  });
  await createProduct({ name: 'Hook', price: 2, stock: 3, description: 'Few left.' });
  await signIn();
  await expect(productCards(page)).toHaveCount(2);
  // By default the catalogue's point, 10: only the hook.
  await expect(stockFilter(page, /^To reorder\s*1$/)).toBeVisible();

  await page.goto(`/edit/product/${shelf.id}`);
  const point = page.getByLabel('Reorder point');
  await expect(point).toHaveValue('');
  await expect(point).toHaveAttribute('placeholder', '10');
  await expect(page.getByText("Leave empty to use the catalogue's (10)")).toBeVisible();
  await point.fill('50');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Product updated')).toBeVisible();

  await stockFilter(page, /^To reorder/).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('stock')).toBe('reorder');
  await expect(productCards(page)).toHaveCount(2);
  await expect(productCard(page, 'Shelf')).toBeVisible();
  await expect(stockFilter(page, /^To reorder\s*2$/)).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(productCard(page, 'Shelf')).toBeVisible();
});

test('opting in to the daily low-stock digest on the profile', async ({ page, signIn, user }) => {
  await signIn();
  await openUserMenuItem(page, user.name, 'My Profile');
  const digest = page.getByRole('checkbox', { name: 'E-mail me a daily low-stock digest' });
  await expect(digest).not.toBeChecked();
  await digest.check();
  await expect(toast(page, 'Preferences saved')).toBeVisible();
  await page.reload();
  await expect(digest).toBeChecked();
});
