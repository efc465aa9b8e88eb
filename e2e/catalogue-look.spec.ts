import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import type { NewProduct } from './support/api.js';
import { expect, test } from './support/fixtures.js';
import { layoutShift, watchLayoutShifts } from './support/layout-shift.js';
import {
  expectTextColour,
  productCard,
  productCards,
  slowDown,
  toast,
  withoutLiveUpdates,
} from './support/ui.js';

/** How the list reads and fits: the stock's words and colours, a phone's density, small polish. */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

type CreateProduct = (product: NewProduct) => Promise<{ id: string }>;

const STOCKED = [
  { name: 'Lamp', price: 19.99, stock: 25 },
  { name: 'Chair', price: 89, stock: 4 },
  { name: 'Tray', price: 3.5, stock: 0 },
] as const;

async function createStocked(createProduct: CreateProduct) {
  const ids: Record<string, string> = {};
  for (const product of STOCKED) {
    ids[product.name] = (await createProduct({ ...product, description: 'For the look.' })).id;
  }
  return ids;
}

async function createMany(createProduct: CreateProduct, count: number) {
  for (let i = 1; i <= count; i++) {
    await createProduct({
      name: `Item ${String(i).padStart(2, '0')}`,
      price: 10 + i,
      stock: i,
      description: 'A sturdy thing for the shelf, long enough to need two lines on a phone.',
    });
  }
}

/** The words a card says about its stock, and the colours they are in. */
async function expectStockState(
  card: Locator,
  label: string,
  units: RegExp,
  colour: 'green' | 'yellow' | 'red',
  unitsColour: 'green' | 'yellow' = colour === 'green' ? 'green' : 'yellow',
) {
  const state = card.getByText(label, { exact: true });
  await expect(state).toBeVisible();
  await expectTextColour(state, colour);
  await expectTextColour(card.getByText(units), unitsColour);
}

/** Cards drawn wholly inside the window. */
const wholeCards = (page: Page) =>
  productCards(page).evaluateAll(
    (cards) =>
      cards.filter((card) => {
        const box = card.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }).length,
  );

test.describe('the stock in one vocabulary', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width} px: one state and one colour per product, tabs with counts, the count once`, async ({
      page,
      createProduct,
      signIn,
    }) => {
      await createStocked(createProduct);
      await page.setViewportSize(viewport);
      await signIn();
      await expect(productCards(page)).toHaveCount(3);

      await expectStockState(productCard(page, 'Lamp'), 'In stock', /^25 units$/, 'green');
      await expectStockState(
        productCard(page, 'Chair'),
        'In stock · to reorder',
        /^4 units$/,
        'yellow',
      );
      await expectStockState(productCard(page, 'Tray'), 'Out of Stock', /^0 units$/, 'red');

      const tabs = page.getByRole('group', { name: 'Stock filter' }).getByRole('button');
      await expect(tabs).toHaveText([
        /^All\s*3$/,
        // At or below the catalogue's reorder point, 10: the low and the out of stock.
        /^To reorder\s*2$/,
        /^Out of Stock\s*1$/,
      ]);

      // The count, said once and exactly.
      const main = page.getByRole('main');
      await expect(main.getByText('3 products', { exact: true })).toBeVisible();
      await expect(main.getByRole('term')).toHaveText([/units/i, /value at price/i]);
      await expectNoSeriousA11yViolations(page, `list at ${viewport.width} px`);
    });
  }

  test('the exact count on a phone when more than a page is loaded', async ({
    page,
    createProduct,
    signIn,
  }) => {
    await createMany(createProduct, 66);
    await page.setViewportSize(PHONE);
    // Only the first page of 60 arrives: the count must not wait for the rest.
    await page.route(
      (url) => url.pathname === '/api/products' && url.searchParams.has('cursor'),
      () => undefined,
    );
    await signIn();
    await expect(productCards(page)).toHaveCount(60);
    await expect(page.getByText('66 products', { exact: true })).toBeVisible();
    await expect(page.getByText(/\d\+ products/)).toHaveCount(0);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test('the product page: its stock facts in one block, stated once', async ({
    page,
    createProduct,
    signIn,
  }) => {
    const ids = await createStocked(createProduct);
    await signIn();
    await page.goto(`/details/product/${ids['Chair']}`);
    const block = page.locator('[data-stock-block]');
    await expect(block).toHaveCount(1);
    // The spec's texts, together in that block: 'In Stock: 4', the availability, the units and
    // the stepper that changes them.
    await expect(block.getByText('In Stock: 4')).toBeVisible();
    await expect(block.getByText('In Stock · to reorder', { exact: true })).toBeVisible();
    await expect(block.getByText('4 units', { exact: true })).toBeVisible();
    await expect(block.getByRole('button', { name: 'Increase stock of Chair' })).toBeVisible();
    await expectTextColour(block.getByText('4 units', { exact: true }), 'yellow');
    // Nowhere else on the page.
    await expect(page.getByText(/\d units?$/)).toHaveCount(1);
    await expect(page.getByText(/^(In stock|Out of Stock)( · to reorder)?$/i)).toHaveCount(1);

    await page.goto(`/details/product/${ids['Tray']}`);
    await expect(page.getByText('Out of Stock', { exact: true })).toHaveCount(1);
    await expectTextColour(page.getByText('0 units', { exact: true }), 'yellow');
  });
});

test.describe('a dense phone list', () => {
  test('at 390×844: four whole rows, each with its name, description, price, stock, Edit and Delete', async ({
    page,
    api,
    token,
    createProduct,
    signIn,
  }) => {
    await watchLayoutShifts(page.context());
    await createMany(createProduct, 17);
    await page.setViewportSize(PHONE);
    await signIn();
    await expect(productCards(page)).toHaveCount(17);
    // Each row shows its description on two lines (spec), under a search and sort on two rows.
    expect(await wholeCards(page), 'products wholly on the first screen').toBeGreaterThanOrEqual(4);

    const card = productCard(page, 'Item 17');
    await expect(card.getByAltText('Item 17')).toBeVisible();
    await expect(card.getByText(/^A sturdy thing/)).toBeVisible();
    await expect(card.getByText('$27.00', { exact: true })).toBeVisible();
    await expect(card.getByText('In stock', { exact: true })).toBeVisible();
    await expect(card.getByText('17 units', { exact: true })).toBeVisible();
    await expect(card.getByRole('link', { name: 'Edit Item 17' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Delete Item 17' })).toBeVisible();
    const { score, shifts } = await layoutShift(page);
    expect(score, shifts.join('\n')).toBeLessThanOrEqual(0.01);

    // The stepper, one tap away.
    const increase = card.getByRole('button', { name: 'Increase stock of Item 17' });
    await expect(increase).toBeHidden();
    await card.getByRole('button', { name: 'Adjust stock of Item 17' }).click();
    await increase.click();
    await expect(card.getByText('18 units', { exact: true })).toBeVisible();
    const id = /[0-9a-f-]{36}/.exec(
      (await card.getByRole('heading').getByRole('link').getAttribute('href')) ?? '',
    )![0];
    await expect
      .poll(async () => ((await api.getProduct(token, id)) as { stock: number }).stock)
      .toBe(18);
    await expectNoSeriousA11yViolations(page, 'phone list with a stepper open');
  });

  test('at 390 px: variants read whole on two lines, and each row’s ± is its own', async ({
    page,
    createProduct,
    signIn,
  }) => {
    const variants = ['Amber', 'Clear', 'Cobalt', 'Green', 'Frosted'].map(
      (colour) => `Glass Bottle 500 ml — ${colour}, Swing Top`,
    );
    for (const [i, name] of variants.entries()) {
      await createProduct({ name, price: 3 + i, stock: 20, description: 'A bottle.' });
    }
    await page.setViewportSize(PHONE);
    await signIn();
    await expect(productCards(page)).toHaveCount(5);

    for (const name of variants) {
      const heading = productCard(page, name).getByRole('heading');
      const box = await heading.evaluate((element) => ({
        clipped: element.scrollHeight > element.clientHeight + 1,
        lines: Math.round(
          element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight),
        ),
      }));
      expect(box, name).toEqual({ clipped: false, lines: 2 });
    }

    // A finger is about 9 mm wide: every ± is at least 44 px tall (40 wide, beside its own row's
    // Edit and Delete), with room between rows.
    const boxes = [];
    for (const name of variants) {
      const adjust = productCard(page, name).getByRole('button', {
        name: `Adjust stock of ${name}`,
      });
      boxes.push((await adjust.boundingBox())!);
    }
    boxes.sort((a, b) => a.y - b.y);
    for (const [i, box] of boxes.entries()) {
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(40);
      if (i > 0) {
        const previous = boxes[i - 1]!;
        expect(box.y - (previous.y + previous.height), 'room between rows').toBeGreaterThanOrEqual(
          16,
        );
      }
    }
  });

  test('the desktop remembers the table; its columns line up and its header stays in view', async ({
    page,
    createProduct,
    signIn,
  }) => {
    await createMany(createProduct, 30);
    await createProduct({ name: 'Bolt', price: 1, stock: 0, description: 'None left.' });
    await createProduct({ name: 'Nut', price: 1, stock: 123456, description: 'Plenty.' });
    await page.setViewportSize(DESKTOP);
    await signIn();
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Table' }).click();
    await expect(page.getByRole('table')).toBeVisible();

    // A new visit with no view in its URL: the table again.
    await page.goto('/');
    const table = page.getByRole('table');
    await expect(table).toBeVisible();

    const decreaseLefts = await table
      .getByRole('button', { name: /^Decrease stock of/ })
      .evaluateAll((buttons) => [
        ...new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().left))),
      ]);
    expect(decreaseLefts, 'the − buttons of every row share one x').toHaveLength(1);

    await page.mouse.wheel(0, 1500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    const header = table.getByRole('columnheader', { name: 'Price', exact: true });
    await expect.poll(async () => (await header.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    expect((await header.boundingBox())!.y).toBeLessThan(60);

    // Cards chosen: remembered too.
    await page.getByRole('button', { name: 'Cards' }).click();
    await page.goto('/');
    await expect(productCards(page).first()).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
  });
});

test.describe('polish', () => {
  test('a focused heading shows no box; a password can be shown; the login button says Log in', async ({
    page,
    user,
  }) => {
    await page.goto('/auth/signup');
    await page.getByRole('link', { name: 'Already have an account? Log in' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/auth\/login$/);
    const heading = page.getByRole('heading', { name: 'Welcome Back!' });
    await expect(heading).toBeFocused();
    const outline = await heading.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(outline.style === 'none' || outline.width === 0, JSON.stringify(outline)).toBe(true);

    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
    const password = page.getByLabel('Password', { exact: true });
    await password.fill(user.password);
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show Password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Show Password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await expectNoSeriousA11yViolations(page, 'login with its password toggle');
  });

  test('on a phone, toasts come under the header, two at most', async ({
    page,
    api,
    token,
    createProduct,
    signIn,
  }) => {
    const { id } = await createProduct({ name: 'Jar', price: 2, stock: 3, description: 'Glass.' });
    await page.setViewportSize(PHONE);
    // The sale elsewhere below must reach the card only through its own requests.
    await withoutLiveUpdates(page);
    await signIn();
    const card = productCard(page, 'Jar');
    await card.getByRole('button', { name: 'Adjust stock of Jar' }).click();
    // Sold elsewhere: each − is refused, each with its toast. The answers are held back a moment,
    // so that the three clicks are made before the first refusal comes.
    await api.adjustStock(token, id, -3);
    await slowDown(page, '**/api/products/*/stock', 1500);
    const decrease = card.getByRole('button', { name: 'Decrease stock of Jar' });
    for (let i = 0; i < 3; i++) await decrease.click();
    await expect(toast(page, /Not enough stock/).first()).toBeVisible();
    const shown = page.locator('.Toastify__toast');
    await expect(shown).toHaveCount(2);
    // The third waits for a place rather than pile up.
    await page.waitForTimeout(1000);
    await expect(shown).toHaveCount(2);
    const headerBottom = (await page.getByRole('banner').boundingBox())!;
    // The area's top: a toast on its way out slides, but the area stays put.
    const area = (await page.locator('.Toastify__toast-container').boundingBox())!;
    expect(area.y).toBeGreaterThanOrEqual(headerBottom.y + headerBottom.height);
  });

  test('the product page: Product ID small and copyable, Duplicate and Delete', async ({
    page,
    context,
    createProduct,
    signIn,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { id } = await createProduct({
      name: 'Oak crate',
      price: 12.5,
      stock: 6,
      description: 'A sturdy oak crate.',
      sku: 'OAK-1',
    });
    await signIn();
    await page.goto(`/details/product/${id}`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText('Oak crate');

    // Not the first line: the name comes first; the id is small print with a Copy button.
    const firstLine = await main.evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.textContent?.trim()) return node.textContent.trim();
      }
      return '';
    });
    expect(firstLine).toBe('Oak crate');
    const shownId = page.getByText(id, { exact: true });
    await expect(shownId).toBeVisible();
    expect(
      await shownId.evaluate((element) => parseFloat(getComputedStyle(element).fontSize)),
    ).toBeLessThanOrEqual(12);
    await page.getByRole('button', { name: 'Copy Product ID' }).click();
    await expect(page.getByRole('button', { name: 'Product ID copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);

    // Duplicate: the create form, filled in but for the codes.
    await page.getByRole('link', { name: 'Duplicate' }).click();
    await expect(page).toHaveURL(/\/new\/product$/);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Oak crate');
    await expect(page.getByLabel('Price', { exact: true })).toHaveValue('12.50');
    await expect(page.getByLabel('Stock', { exact: true })).toHaveValue('6');
    await expect(page.getByLabel('Description', { exact: true })).toHaveValue(
      'A sturdy oak crate.',
    );
    await expect(page.getByLabel('SKU (optional)', { exact: true })).toHaveValue('');

    // Delete, from the product page: the spec's confirmation, then the list without it.
    await page.goto(`/details/product/${id}`);
    await page.getByRole('button', { name: 'Delete Oak crate' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Are you sure?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(dialog.getByText('Deleted!')).toBeVisible();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('No products', { exact: true })).toBeVisible();
  });
});
