import { expect, test } from './support/fixtures.js';
import { expectShowsImage, productCard, toast, userMenuButton } from './support/ui.js';

/**
 * The activity log: a stepper change, a price edit and a delete show with where they were made;
 * undoing the delete brings the product back with its picture; the kind filter lives in the URL.
 */
test('the Activity screen lists changes with their sources and undoes a delete', async ({
  page,
  createProduct,
  signIn,
  user,
}) => {
  const vase = await createProduct({
    name: 'Vase',
    price: 3,
    stock: 4,
    description: 'A blue vase.',
    image: 'crate',
  });
  await signIn();

  // The stepper on the card: 4 → 5.
  const card = productCard(page, 'Vase');
  const saved = page.waitForResponse(
    (res) => res.url().endsWith(`/api/products/${vase.id}/stock`) && res.ok(),
  );
  await card.getByRole('button', { name: 'Increase stock of Vase' }).click();
  await saved;

  // The form: price 3.00 → 4.50.
  await page.goto(`/edit/product/${vase.id}`);
  await page.getByLabel('Price', { exact: true }).fill('4.50');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Product updated')).toBeVisible();

  // The delete, from the card.
  await page.goto('/');
  await productCard(page, 'Vase').getByRole('button', { name: 'Delete Vase' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
  await expect(dialog.getByText('Deleted!')).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(productCard(page, 'Vase')).toHaveCount(0);

  // The user menu leads to the log.
  await userMenuButton(page, user.name).click();
  await page.getByRole('menuitem', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  const entries = page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem');
  const line = (text: string) => entries.filter({ hasText: text });
  await expect(line('Stock of Vase: 4 → 5')).toContainText('Stepper');
  await expect(line('Edited Vase: price 3.00 → 4.50')).toContainText('Form');
  await expect(line('Deleted Vase')).toContainText('API');
  await expect(line('Stock of Vase: 4 → 5')).toContainText('You');

  // Undo the delete: the entry says so, and the product is back with its picture.
  await line('Deleted Vase').getByRole('button', { name: 'Undo' }).click();
  await expect(line('Deleted Vase').getByText('Undone')).toBeVisible();
  await page.goto('/');
  const back = productCard(page, 'Vase');
  await expect(back).toBeVisible();
  await expectShowsImage(back.getByAltText('Vase', { exact: true }), 'crate');

  // The kind filter is in the URL: only deletes.
  await page.goto('/activity?kind=product.deleted');
  await expect(page.getByLabel('Kind')).toHaveValue('product.deleted');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Deleted Vase');
  await page.getByLabel('Kind').selectOption('stock.moved');
  await expect(page).toHaveURL(/kind=stock\.moved/);
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Stock of Vase: 4 → 5');
});
