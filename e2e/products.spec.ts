import { M } from '../src/shared/messages.js';
import type { ApiProduct } from './support/api.js';
import { expect, test } from './support/fixtures.js';
import { imagePath } from './support/images.js';
import {
  expectShowsImage,
  expectTextColour,
  cardTitleLink,
  productCard,
  productCards,
  slowDown,
  toast,
} from './support/ui.js';

test('empty catalogue: the empty state links to the create screen; header and footer', async ({
  page,
  signIn,
}) => {
  await signIn();
  await expect(page.getByRole('heading', { name: 'Products', exact: true })).toBeVisible();
  await expect(page.getByText('A list of all the products in your inventory.')).toBeVisible();
  await expect(page.getByText('No products', { exact: true })).toBeVisible();
  await expect(page.getByText('Get started by creating a new product.')).toBeVisible();
  await expect(productCards(page)).toHaveCount(0);
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(String(new Date().getFullYear()));
  await expect(footer).toContainText('Created by');
  await expect(footer.getByRole('link')).toHaveAttribute('href', /^https?:\/\//);

  await page.getByRole('link', { name: 'Add new product' }).first().click();
  await expect(page).toHaveURL(/\/(new|add)\/product$/);
  await expect(page.getByRole('heading', { name: 'Create New Product' })).toBeVisible();
  // The logo in the header leads back to the list.
  await page.getByRole('banner').getByRole('link', { name: 'Stockroom' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('create a product with an image: validation, upload progress, then its card', async ({
  page,
  api,
  signIn,
}) => {
  await signIn();
  await page.goto('/new/product');
  await expect(page.getByRole('heading', { name: 'Create New Product' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/');
  const name = page.getByLabel('Name', { exact: true });
  const price = page.getByLabel('Price', { exact: true });
  const stock = page.getByLabel('Stock', { exact: true });
  const description = page.getByLabel('Description', { exact: true });
  const image = page.getByLabel('Product Image', { exact: true });
  const submit = page.getByRole('button', { name: 'Create Product' });

  await submit.click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(
    page.getByText(/^(Price is required|The price of the product is required)$/),
  ).toBeVisible();
  await expect(
    page.getByText(/^(Stock is required|The stock of the product is required)$/),
  ).toBeVisible();
  await expect(page.getByText('Description is required')).toBeVisible();
  await price.fill('0');
  await expect(page.getByText('Price must be greater than 0')).toBeVisible();
  await stock.fill('0');
  await expect(page.getByText('Stock must be greater than 0')).toBeVisible();

  await name.fill('Oak crate');
  await price.fill('12.5');
  await stock.fill('25');
  await description.fill('A sturdy oak crate for the storeroom, with rope handles on both sides.');

  // The picker shows the chosen file's name and can be cleared.
  await image.setInputFiles(imagePath('crate'));
  await expect(page.getByText('crate.jpg')).toBeVisible();
  await page.getByRole('button', { name: /clear|remove/i }).click();
  await expect(page.getByText('crate.jpg')).toBeHidden();
  await image.setInputFiles(imagePath('crate'));
  await expect(page.getByText('crate.jpg')).toBeVisible();

  // A slow uplink, so that the upload progress can be seen.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 200 * 1024,
  });
  await submit.click();
  await expect(page.getByRole('button', { name: 'Creating...' })).toBeDisabled();
  await expect(page.getByRole('progressbar')).toBeVisible();
  await expect(toast(page, M.productCreated)).toBeVisible();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(page).toHaveURL(/\/$/);

  const card = productCard(page, 'Oak crate');
  await expect(card).toBeVisible();
  await expect(card.getByText('$12.50')).toBeVisible();
  await expect(card.getByText('In stock', { exact: true })).toBeVisible();
  await expect(card.getByText('Out of Stock')).toHaveCount(0);
  await expect(card.getByRole('link', { name: 'Edit Oak crate' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Delete Oak crate' })).toBeVisible();
  const units = card.getByText(/^25 units$/);
  await expect(units).toBeVisible();
  await expectTextColour(units, 'green');

  // The card shows the uploaded picture, not a placeholder.
  const picture = card.getByAltText('Oak crate', { exact: true });
  await expectShowsImage(picture, 'crate');
  const token = await page.evaluate(() => localStorage.getItem('AccessToken'));
  const id = /[0-9a-f-]{36}/.exec((await cardTitleLink(card).getAttribute('href')) ?? '')?.[0];
  const stored = await api.getProduct(token!, id!);
  expect(typeof stored).toBe('object');
  expect([(stored as ApiProduct).image, (stored as ApiProduct).thumbnail]).toContain(
    await picture.getAttribute('src'),
  );
});

test('detail page shows the product values', async ({ page, createProduct, signIn }) => {
  const product = await createProduct({
    name: 'Pine shelf',
    price: 1234.5,
    stock: 40,
    description: 'A tall pine shelf with five boards.',
    image: 'shelf',
  });
  await signIn();
  await cardTitleLink(productCard(page, 'Pine shelf')).click();
  await expect(page).toHaveURL(new RegExp(`/details/product/${product.id}$`));

  await expect(page.getByRole('heading', { name: 'Pine shelf' })).toBeVisible();
  await expect(page.getByText('Product ID')).toBeVisible();
  await expect(page.getByText(product.id)).toBeVisible();
  await expect(page.getByText('In Stock: 40')).toBeVisible();
  await expect(page.getByText('$1,234.50').first()).toBeVisible();
  await expect(page.getByText('A tall pine shelf with five boards.')).toBeVisible();
  await expect(page.getByText('40 units')).toBeVisible();
  await expect(page.getByText('Out of Stock')).toHaveCount(0);
  // The availability row and the badge.
  await expect(page.getByText('In Stock', { exact: true })).toBeVisible();
  await expectShowsImage(page.getByRole('img', { name: 'Pine shelf' }), 'shelf');

  await page.getByRole('link', { name: 'Edit Product' }).click();
  await expect(page).toHaveURL(new RegExp(`/edit/product/${product.id}$`));
  await page.goBack();
  await page.getByRole('link', { name: 'Back to Products' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('edit a product with a new image', async ({ page, api, token, createProduct, signIn }) => {
  const product = await createProduct({
    name: 'Steel bin',
    price: 30,
    stock: 50,
    description: 'A steel bin for screws.',
    image: 'crate',
  });
  await signIn();
  await page.goto(`/details/product/${product.id}`);
  await page.getByRole('link', { name: 'Edit Product' }).click();
  await expect(page).toHaveURL(new RegExp(`/edit/product/${product.id}$`));
  await expect(page.getByRole('heading', { name: 'Edit Product' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Details' })).toHaveAttribute(
    'href',
    `/details/product/${product.id}`,
  );

  const name = page.getByLabel('Name', { exact: true });
  const price = page.getByLabel('Price', { exact: true });
  const stock = page.getByLabel('Stock', { exact: true });
  const description = page.getByLabel('Description', { exact: true });
  await expect(name).toHaveValue('Steel bin');
  await expect(price).toHaveValue(/^30(\.00?)?$/);
  await expect(stock).toHaveValue('50');
  await expect(description).toHaveValue('A steel bin for screws.');
  await expect(page.getByText('Current image')).toBeVisible();
  await expectShowsImage(page.getByRole('img', { name: 'Steel bin' }), 'crate');

  await name.fill('Steel bin, large');
  await price.fill('34.75');
  await stock.fill('4');
  await page.getByLabel('Product Image', { exact: true }).setInputFiles(imagePath('shelf'));
  await expect(page.getByText('shelf.png')).toBeVisible();
  await slowDown(page, `**/api/products/${product.id}`);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  await expect(toast(page, M.productUpdated)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const card = productCard(page, 'Steel bin, large');
  await expect(card).toBeVisible();
  await expect(productCard(page, 'Steel bin')).toHaveCount(0);
  await expect(card.getByText('$34.75')).toBeVisible();
  const units = card.getByText(/^4 units$/);
  await expect(units).toBeVisible();
  await expectTextColour(units, 'yellow');
  // The new picture replaced the old one.
  await expectShowsImage(card.getByAltText('Steel bin, large', { exact: true }), 'shelf');
  const stored = (await api.getProduct(token, product.id)) as ApiProduct;
  expect(stored.image).not.toBe(product.image);
  expect(stored).toMatchObject({ name: 'Steel bin, large', price: 34.75, stock: 4 });
});

test('search and sort the list', async ({ page, createProduct, signIn }) => {
  for (const [name, price, stock] of [
    ['Alpha crate', 30, 12],
    ['Bravo shelf', 10, 3],
    ['Charlie bin', 20, 7],
  ] as const) {
    await createProduct({ name, price, stock, description: `${name} for the store.` });
  }
  await signIn();
  const names = () => productCards(page).getByRole('heading').allInnerTexts();
  await expect.poll(names).toEqual(['Charlie bin', 'Bravo shelf', 'Alpha crate']);

  const search = page.getByRole('searchbox');
  await search.fill('shelf');
  await expect.poll(names).toEqual(['Bravo shelf']);
  await expect(page).toHaveURL(/[?&]q=shelf/);
  await search.fill('no such thing');
  await expect(page.getByText('No products found')).toBeVisible();
  await expect(productCards(page)).toHaveCount(0);
  await expect(page.getByText('No products', { exact: true })).toBeHidden();
  await search.fill('');
  await expect(productCards(page)).toHaveCount(3);

  const sort = page.getByRole('combobox', { name: /sort/i });
  await sort.selectOption('price-asc');
  await expect.poll(names).toEqual(['Bravo shelf', 'Charlie bin', 'Alpha crate']);
  await expect(page).toHaveURL(/[?&]sort=price-asc/);
  await sort.selectOption('price-desc');
  await expect.poll(names).toEqual(['Alpha crate', 'Charlie bin', 'Bravo shelf']);
  await sort.selectOption('name');
  await expect.poll(names).toEqual(['Alpha crate', 'Bravo shelf', 'Charlie bin']);
  // The state lives in the URL: a reload keeps it.
  await page.reload();
  await expect.poll(names).toEqual(['Alpha crate', 'Bravo shelf', 'Charlie bin']);
  await expect(sort).toHaveValue('name');
});

test('delete: cancel keeps the product, confirm removes it', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const product = await createProduct({
    name: 'Old ladder',
    price: 5,
    stock: 2,
    description: 'A wobbly ladder.',
  });
  await signIn();
  const card = productCard(page, 'Old ladder');
  const dialog = page.getByRole('dialog');

  await card.getByRole('button', { name: 'Delete Old ladder' }).click();
  await expect(dialog.getByText('Are you sure?')).toBeVisible();
  await expect(dialog.getByText('You will not be able to recover this product!')).toBeVisible();
  await dialog.getByRole('button', { name: /cancel/i }).click();
  await expect(dialog.getByText('Cancelled')).toBeVisible();
  await expect(dialog.getByText('Your product is safe')).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toBeVisible();
  expect(typeof (await api.getProduct(token, product.id))).toBe('object');

  await card.getByRole('button', { name: 'Delete Old ladder' }).click();
  await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
  await expect(dialog.getByText('Deleted!')).toBeVisible();
  // The server's message, in the dialog and as the success toast (the dialog hides the toast
  // area from assistive technology while it is open).
  await expect(dialog.getByText('Your product has been deleted.')).toBeVisible();
  expect(M.productDeleted).toBe('Your product has been deleted.');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Your product has been deleted.')).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(page.getByText('No products', { exact: true })).toBeVisible();
  expect(await api.getProduct(token, product.id)).toBe(404);
});

test('a product with stock 0 shows the Out of Stock badge', async ({
  page,
  createProduct,
  signIn,
}) => {
  const empty = await createProduct({
    name: 'Sold-out tray',
    price: 3.99,
    stock: 0,
    description: 'Nothing left.',
  });
  await createProduct({
    name: 'Spare tray',
    price: 3.99,
    stock: 5,
    description: 'Five left.',
  });
  await signIn();
  const soldOut = productCard(page, 'Sold-out tray');
  await expect(soldOut.getByText('Out of Stock', { exact: true })).toBeVisible();
  await expect(soldOut.getByText('In stock', { exact: true })).toHaveCount(0);
  const spare = productCard(page, 'Spare tray');
  // 5 units: in stock, and said to be low.
  await expect(spare.getByText('In stock · to reorder', { exact: true })).toBeVisible();
  await expect(spare.getByText('Out of Stock', { exact: true })).toHaveCount(0);
  await expectTextColour(spare.getByText(/^5 units$/), 'yellow');

  await page.goto(`/details/product/${empty.id}`);
  await expect(page.getByText('In Stock: 0')).toBeVisible();
  // Said once, in the stock's block.
  await expect(page.getByText('Out of Stock', { exact: true })).toHaveCount(1);
  await expect(page.getByText('In Stock', { exact: true })).toHaveCount(0);
});

test('the edit form sets the stock to 0, and the details show Out of Stock', async ({
  page,
  api,
  token,
  createProduct,
  signIn,
}) => {
  const product = await createProduct({
    name: 'Last lantern',
    price: 12,
    stock: 3,
    description: 'The last three lanterns.',
  });
  await signIn();
  await page.goto(`/edit/product/${product.id}`);
  const stock = page.getByLabel('Stock', { exact: true });
  await expect(stock).toHaveValue('3');
  await stock.fill('0');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, M.productUpdated)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await page.goto(`/details/product/${product.id}`);
  await expect(page.getByText('In Stock: 0')).toBeVisible();
  await expect(page.getByText('Out of Stock', { exact: true })).toHaveCount(1);
  expect(await api.getProduct(token, product.id)).toMatchObject({ stock: 0 });
});
