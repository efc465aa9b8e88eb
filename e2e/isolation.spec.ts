import { M } from '../src/shared/messages.js';
import { newAccount } from './support/accounts.js';
import { expect, test } from './support/fixtures.js';
import { expectTextColour, productCards } from './support/ui.js';

test("a second user never sees the first user's products, even by direct URL", async ({
  page,
  api,
  token: firstToken,
  createProduct,
  signIn,
}) => {
  const product = await createProduct({
    name: 'Private crate',
    price: 9,
    stock: 9,
    description: 'Only mine.',
  });
  const second = await api.signUpAndConfirm(newAccount('second'));
  const secondToken = await api.login(second);

  await signIn(second);
  await expect(page.getByText('No products', { exact: true })).toBeVisible();
  await expect(productCards(page)).toHaveCount(0);
  await expect(page.getByText('Private crate')).toHaveCount(0);

  for (const path of [`/details/product/${product.id}`, `/edit/product/${product.id}`]) {
    await page.goto(path);
    const error = page.getByText(M.productNotFound);
    await expect(error).toBeVisible();
    // Spec: a load failure shows the message in red, centred.
    await expectTextColour(error, 'red');
    await expect(page.getByText('Private crate')).toHaveCount(0);
  }
  expect(await api.getProduct(secondToken, product.id)).toBe(404);
  expect(typeof (await api.getProduct(firstToken, product.id))).toBe('object');
});
