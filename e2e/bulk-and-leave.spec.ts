import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { expect, test } from './support/fixtures.js';
import { watchLayoutShifts, layoutShift } from './support/layout-shift.js';
import { productCards, slowDown, toast } from './support/ui.js';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('the selection bar stays at the bottom of the screen; the confirmation names five and counts the rest', async ({
      page,
      createProduct,
      signIn,
    }) => {
      const names = Array.from({ length: 16 }, (_, i) => `Crate ${String(i + 1).padStart(2, '0')}`);
      for (const name of names) {
        await createProduct({ name, price: 10, stock: 4, description: `${name}.` });
      }
      await watchLayoutShifts(page);
      await signIn();
      await expect(productCards(page)).toHaveCount(16);
      // The first paint's shifts are the screens spec's subject; this test measures from here.
      const shown = await layoutShift(page);

      // Newest first: Crate 16 down to Crate 10.
      const chosen = names.slice(-7).reverse();
      for (const name of chosen) {
        await page.getByRole('checkbox', { name: `Select ${name}` }).check();
      }
      const bar = page.getByRole('region', { name: 'Selected products' });
      await expect(bar.getByText('7 selected')).toBeVisible();

      // Halfway down: the list's top (where the count is) is out of sight, its end not yet in.
      await page.evaluate(() =>
        window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) / 2),
      );
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
      const deleteSelected = bar.getByRole('button', { name: 'Delete selected' });
      await expect(deleteSelected).toBeInViewport();
      const box = await bar.boundingBox();
      expect(box!.y + box!.height).toBeGreaterThan(size.height - 4);
      expect(box!.y + box!.height).toBeLessThanOrEqual(size.height + 1);
      await expectNoSeriousA11yViolations(page, 'list with a selection');

      // Choosing moved nothing (the list's own changes after the delete below are not measured).
      const afterChoosing = await layoutShift(page);
      expect(
        afterChoosing.score - shown.score,
        afterChoosing.shifts.join('\n'),
      ).toBeLessThanOrEqual(0.01);

      await deleteSelected.click();
      const dialog = page.getByRole('dialog');
      await expect(
        dialog.getByText('You will not be able to recover these 7 products!'),
      ).toBeVisible();
      await expect(dialog.getByRole('listitem')).toHaveText([...chosen.slice(0, 5), 'and 2 more']);
      await dialog.getByRole('button', { name: 'Yes, delete 7 products!' }).click();
      await expect(toast(page, '7 products deleted')).toBeVisible();
      await expect(productCards(page)).toHaveCount(9);
      await expect(bar).toHaveCount(0);
    });
  });
}

test('leaving a changed create form asks first: in the app, and when the tab closes', async ({
  page,
  signIn,
}) => {
  await signIn();
  await page.goto('/new/product');
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('Half-typed crate');

  await page.getByRole('link', { name: /Back to Products/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Leave without saving?')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'leave prompt');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/new\/product$/);
  await expect(name).toHaveValue('Half-typed crate');

  // Closing the tab: the browser's own question.
  const asked = new Promise<string>((resolve) => {
    page.once('dialog', (question) => {
      resolve(question.type());
      void question.dismiss();
    });
  });
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
});

test('leaving a changed edit form asks first; leave goes, and saving never asks', async ({
  page,
  createProduct,
  signIn,
}) => {
  const { id } = await createProduct({
    name: 'Oak crate',
    price: 12,
    stock: 3,
    description: 'Oak.',
  });
  await signIn();
  await page.goto(`/edit/product/${id}`);
  const name = page.getByLabel('Name', { exact: true });
  await expect(name).toHaveValue('Oak crate');

  // Unchanged: no question.
  await page.getByRole('link', { name: /Back to Details/ }).click();
  await expect(page).toHaveURL(new RegExp(`/details/product/${id}$`));
  await page.goBack();
  await expect(name).toHaveValue('Oak crate');

  await name.fill('Oak crate, large');
  await page.getByRole('link', { name: /Back to Details/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(new RegExp(`/details/product/${id}$`));

  await page.goto(`/edit/product/${id}`);
  await name.fill('Oak crate, large');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(dialog).toHaveCount(0);
});

for (const size of SIZES) {
  test(`at ${size.width}×${size.height}: a product page keeps its shape from skeleton to product`, async ({
    page,
    createProduct,
    signIn,
  }) => {
    const { id } = await createProduct({
      name: 'Oak crate',
      price: 12,
      stock: 3,
      description: 'Oak.',
    });
    await page.setViewportSize(size);
    await signIn();
    await watchLayoutShifts(page);
    await slowDown(page, `**/api/products/${id}`, 1_500);
    await page.goto(`/details/product/${id}`);
    await expect(
      page.getByRole('status').filter({ hasText: 'Loading the product...' }),
    ).toBeAttached();
    // The screen while the product loads, then with it: the same place and nearly the same size.
    // The page's skeleton gives way to the screen's own once the user is known: measured whichever
    // is there (the same shape), not in the moment one replaces the other.
    const screen = page.getByRole('main').locator('.rounded-2xl').first();
    let loading: Awaited<ReturnType<typeof screen.boundingBox>> = null;
    await expect.poll(async () => (loading = await screen.boundingBox())).not.toBeNull();
    await expect(page.getByRole('heading', { name: 'Oak crate', level: 1 })).toBeVisible();
    const loaded = (await screen.boundingBox())!;
    expect(Math.abs(loaded.y - loading!.y)).toBeLessThanOrEqual(1);
    expect(Math.abs(loaded.width - loading!.width)).toBeLessThanOrEqual(1);
    expect(loading!.height / loaded.height).toBeGreaterThan(0.85);
    await expectNoSeriousA11yViolations(page, 'product details');
    expect((await layoutShift(page)).score).toBeLessThanOrEqual(0.01);
  });
}
