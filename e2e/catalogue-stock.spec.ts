import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { expect, test } from './support/fixtures.js';
import { productCard, toast, withoutLiveUpdates } from './support/ui.js';

test('the stepper on a card: +, −, Set a count, and a refusal below 0 rolled back', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const { id } = await createProduct({
    name: 'Oak crate',
    price: 12.5,
    stock: 1,
    description: 'A sturdy oak crate.',
  });
  // Changes made elsewhere below must reach the card only through its own requests.
  await withoutLiveUpdates(page);
  await signIn();
  const card = productCard(page, 'Oak crate');
  const stockOf = async () => ((await api.getProduct(token, id)) as { stock: number }).stock;

  await card.getByRole('button', { name: 'Increase stock of Oak crate' }).click();
  await expect(card.getByText(/^2 units$/)).toBeVisible();
  await card.getByRole('button', { name: 'Increase stock of Oak crate' }).click();
  await card.getByRole('button', { name: 'Decrease stock of Oak crate' }).click();
  await expect(card.getByText(/^2 units$/)).toBeVisible();
  await expect.poll(stockOf).toBe(2);

  await card.getByLabel('New stock of Oak crate').fill('40');
  await card.getByRole('button', { name: 'Set stock of Oak crate' }).click();
  await expect(card.getByText(/^40 units$/)).toBeVisible();
  await expect.poll(stockOf).toBe(40);
  await expect(page.getByText('Total units').locator('..')).toContainText('40');

  // Sold elsewhere meanwhile: the server has 0 while the card still says 40.
  await api.adjustStock(token, id, -40);
  await card.getByRole('button', { name: 'Decrease stock of Oak crate' }).click();
  await expect(toast(page, 'Not enough stock: 0 in stock, cannot take away 1')).toBeVisible();
  // Taken back, then the count the server has.
  await expect(card.getByText(/^0 units$/)).toBeVisible();
  await expect(card.getByText('Out of Stock')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Decrease stock of Oak crate' })).toBeDisabled();
  expect(await stockOf()).toBe(0);

  // Set is the number counted, whatever the stock became meanwhile (7 received elsewhere).
  await api.adjustStock(token, id, 7);
  await card.getByLabel('New stock of Oak crate').fill('35');
  await card.getByLabel('New stock of Oak crate').press('Enter');
  await expect(card.getByText(/^35 units$/)).toBeVisible();
  await expect.poll(stockOf).toBe(35);
});

test('the detail page adjusts the stock and shows the last changes, newest first', async ({
  page,
  createProduct,
  signIn,
}) => {
  const { id } = await createProduct({
    name: 'Pine shelf',
    price: 45,
    stock: 5,
    description: 'A tall pine shelf.',
  });
  await signIn();
  await page.goto(`/details/product/${id}`);
  const history = page.getByRole('list', { name: 'Stock history' }).getByRole('listitem');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText('Created');

  await page.getByRole('button', { name: 'Increase stock of Pine shelf' }).click();
  await expect(page.getByText('In Stock: 6')).toBeVisible();
  await page.getByLabel('New stock of Pine shelf').fill('2');
  await page.getByLabel('Reason (optional)').selectOption('damaged');
  await page.getByLabel('Note (optional)').fill('Two broken in the move');
  await page.getByRole('button', { name: 'Set stock of Pine shelf' }).click();
  await expect(page.getByText('In Stock: 2')).toBeVisible();

  await expect(history).toHaveCount(3);
  // 'Set' sends the count itself: the history says what was counted, and why.
  await expect(history.nth(0)).toContainText(/^2\s*Counted 2 · Damaged/);
  await expect(history.nth(0)).toContainText('Two broken in the move');
  await expect(history.nth(1)).toContainText(/^\+1\s*Adjusted/);
  await expect(history.nth(2)).toContainText(/^\+5\s*Created/);
  await expectNoSeriousA11yViolations(page, 'product detail with its stock history');

  // An edit of the stock is a movement too.
  await page.getByRole('link', { name: 'Edit Product' }).click();
  await page.getByLabel('Stock', { exact: true }).fill('9');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/details/product/${id}`);
  await expect(history).toHaveCount(4);
  await expect(history.first()).toContainText('Edited');
  await expect(history.first()).toContainText(/^\+7\s*Edited/);
});

test('the history: filtered by reason, and paged 20 at a time', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const { id } = await createProduct({
    name: 'Birch stool',
    price: 30,
    stock: 40,
    description: 'A small birch stool.',
  });
  // 22 deliveries and 3 sales: with 'Created', 26 changes.
  for (let i = 0; i < 22; i++) await api.adjustStock(token, id, 1, 'received');
  for (let i = 0; i < 3; i++) await api.adjustStock(token, id, -1, 'sold');
  await signIn();
  await page.goto(`/details/product/${id}`);
  const history = page.getByRole('list', { name: 'Stock history' }).getByRole('listitem');
  await expect(history).toHaveCount(20);
  await expect(history.first()).toContainText(/^−1\s*Adjusted · Sold/);
  await page.getByRole('button', { name: 'Load 20 more' }).click();
  await expect(history).toHaveCount(26);
  await expect(history.last()).toContainText('Created');
  await expect(page.getByRole('button', { name: /^Load \d+ more$/ })).toHaveCount(0);

  const reason = page.getByRole('region', { name: 'Stock history' }).getByRole('combobox');
  await reason.selectOption('sold');
  await expect(history).toHaveCount(3);
  for (const item of await history.all()) await expect(item).toContainText('Sold');
  await reason.selectOption('damaged');
  await expect(page.getByText('No stock changes yet.')).toBeVisible();
  // Back to every reason: the pages already loaded.
  await reason.selectOption('');
  await expect(history).toHaveCount(26);
});
