import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { M, V } from '../src/shared/messages.js';
import type { NewProduct } from './support/api.js';
import { expect, test } from './support/fixtures.js';
import { cardTitleLink, expectTextColour, productCard, productCards, toast } from './support/ui.js';

/**
 * The product screens as a first-time user meets them: long texts, phone density, the
 * delete dialog, form details, and the way back to the list.
 */

const PHONE = { width: 390, height: 844 };

/** Unbroken words: nothing to wrap at but the spaces between them (170 characters). */
const LONG_NAME = `${'A'.repeat(60)} ${'B'.repeat(60)} ${'C'.repeat(48)}`;
/** The longest name the schema takes (200 characters), one unbroken word. */
const LONGEST_NAME = 'W'.repeat(200);

type CreateProduct = (product: NewProduct) => Promise<unknown>;

async function createMany(createProduct: CreateProduct, count: number) {
  for (let i = 1; i <= count; i++) {
    await createProduct({
      name: `Item ${String(i).padStart(2, '0')}`,
      price: 10 + i,
      stock: i,
      description:
        'A sturdy thing for the shelf, with a description long enough to need two lines on a phone and more.',
    });
  }
}

/** Signed in on a phone, with more products than its screen holds (Item 01 to Item 17). */
async function longListOnAPhone(
  page: Page,
  createProduct: CreateProduct,
  signIn: () => Promise<void>,
) {
  await createMany(createProduct, 17);
  await page.setViewportSize(PHONE);
  await signIn();
}

/** The page does not scroll sideways; the failure names the elements that stick out. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth, outside } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    outside: [...document.body.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.className}">`),
  }));
  expect(scrollWidth, `the page scrolls sideways: ${outside.join(', ')}`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/** `inner` is drawn wholly inside `outer`, and not cut off by an ancestor's overflow. */
async function expectInside(inner: Locator, outer: Locator) {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a.x, 'starts left of its box').toBeGreaterThanOrEqual(b.x - 0.5);
  expect(a.x + a.width, 'ends right of its box').toBeLessThanOrEqual(b.x + b.width + 0.5);
  // Nothing inside `inner` overflows it (a long word sticking out would be clipped by the card).
  const overflowing = await inner.evaluate((element) => element.scrollWidth > element.clientWidth);
  expect(overflowing, 'its text overflows it').toBe(false);
}

/** A one-line pill: its height is that of one line of its text plus padding, not two. */
async function expectOneLine(badge: Locator) {
  const { height, lineHeight, whiteSpace } = await badge.evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      height: element.getBoundingClientRect().height,
      lineHeight: parseFloat(style.lineHeight),
      whiteSpace: style.whiteSpace,
    };
  });
  expect(whiteSpace).toBe('nowrap');
  expect(height).toBeLessThan(lineHeight * 2);
}

test.describe('item 5: long text never breaks the layout', () => {
  test.use({ userName: 'N'.repeat(49) });

  for (const name of [LONG_NAME, LONGEST_NAME]) {
    test(`a ${name.length}-character name on the list, the detail page and a long user name`, async ({
      page,
      user,
      createProduct,
      signIn,
    }) => {
      await createProduct({ name, price: 9.99, stock: 0, description: 'Long.' });
      const product = await createProduct({
        name: `${name.slice(0, -1)}Z`,
        price: 9.99,
        stock: 4,
        description: 'Long too.',
      });

      for (const width of [390, 1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await signIn();
        for (const [cardName, badgeText] of [
          [name, 'Out of Stock'],
          [product.name, 'In stock · to reorder'],
        ] as const) {
          const card = productCard(page, cardName);
          await expect(card).toBeVisible();
          await expectInside(card.getByRole('heading'), card);
          const badge = card.getByText(badgeText, { exact: true });
          await expect(badge).toBeVisible();
          await expectInside(badge, card);
          await expectOneLine(badge);
        }
        await expectNoSidewaysScroll(page);
      }

      // The phone: the detail page and the header.
      await page.setViewportSize(PHONE);
      await page.goto(`/details/product/${product.id}`);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toHaveText(product.name);
      await expectInside(heading, page.getByRole('main'));
      await expectOneLine(page.getByText('In Stock · to reorder', { exact: true }));
      await expectNoSidewaysScroll(page);

      const banner = page.getByRole('banner');
      const menu = banner.getByRole('button', { name: `Hello ${user.name}` });
      await expect(menu).toBeVisible();
      await expectInside(menu, banner);
      expect(await banner.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
        true,
      );
      // Nothing is drawn over the wordmark: not 'Scan', not the greeting.
      const wordmark = (await banner.getByText('Stockroom', { exact: true }).boundingBox())!;
      for (const other of [banner.getByRole('link', { name: 'Scan' }), menu]) {
        const box = (await other.boundingBox())!;
        const apart =
          box.x >= wordmark.x + wordmark.width ||
          box.x + box.width <= wordmark.x ||
          box.y >= wordmark.y + wordmark.height ||
          box.y + box.height <= wordmark.y;
        expect(apart, `${await other.textContent()} clear of the wordmark`).toBe(true);
      }
    });
  }
});

test.describe('item 5: selects of long choices on a phone', () => {
  test.use({ viewport: PHONE });

  test('the locations screens and the product page’s supplier picker stay inside 390 px', async ({
    page,
    request,
    token,
    createProduct,
    signIn,
  }) => {
    const post = async <T>(url: string, data: object) => {
      const response = await request.post(url, {
        headers: { authorization: `Bearer ${token}` },
        data,
      });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as T;
    };
    // A select is as wide as its longest choice: the label stocks' names (Avery L7160 …), a
    // deep location's path, the longest supplier name the schema takes.
    const warehouse = await post<{ location: { id: string } }>('/api/locations', {
      name: 'Warehouse on the far side of the yard',
    });
    const aisle = await post<{ location: { id: string } }>('/api/locations', {
      name: 'Aisle of garden tools and watering cans',
      parentId: warehouse.location.id,
    });
    await post('/api/suppliers', { name: `Supplier ${'of fine things '.repeat(6)}`.slice(0, 100) });
    const product = await createProduct({
      name: 'Watering can',
      price: 12,
      stock: 3,
      description: 'Green.',
    });
    await signIn();

    await page.goto('/locations');
    await expect(page.getByRole('combobox', { name: 'Label stock' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.goto(`/locations/${aisle.location.id}`);
    await expect(page.getByRole('combobox', { name: 'Label stock' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Inside' })).toBeVisible();
    await expectNoSidewaysScroll(page);

    await page.goto(`/details/product/${product.id}`);
    await page.getByRole('button', { name: 'Edit suppliers' }).click();
    await expect(page.getByRole('combobox', { name: 'Add a supplier' })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });
});

test.describe('item 10: phone density', () => {
  test('three whole products on the first phone screen, and the number of products', async ({
    page,
    createProduct,
    signIn,
  }) => {
    await longListOnAPhone(page, createProduct, signIn);
    await expect(productCards(page)).toHaveCount(17);
    await expect(page.getByText('17 products', { exact: true })).toBeVisible();
    const whole = await productCards(page).evaluateAll(
      (cards) =>
        cards.filter((card) => {
          const box = card.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }).length,
    );
    expect(whole, 'products wholly above the fold').toBeGreaterThanOrEqual(3);

    // Every field a card shows (spec): image, name, description on two lines, stock, price, tag
    // and the two buttons, inside the card.
    const card = productCard(page, 'Item 17');
    await expect(card.getByAltText('Item 17')).toBeVisible();
    await expect(card.getByText('17 units', { exact: true })).toBeVisible();
    await expect(card.getByText('$27.00', { exact: true })).toBeVisible();
    await expect(card.getByText('In stock', { exact: true })).toBeVisible();
    await expect(card.getByRole('link', { name: 'Edit Item 17' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Delete Item 17' })).toBeVisible();
    // Shown on a phone too (spec: each card shows it), two lines at most.
    const description = card.getByText(/^A sturdy thing/);
    await expect(description).toBeVisible();
    const { clamp, lines } = await description.evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        clamp: style.webkitLineClamp,
        lines: element.getBoundingClientRect().height / parseFloat(style.lineHeight),
      };
    });
    expect(clamp).toBe('2');
    expect(Math.round(lines), 'lines of the description').toBe(2);
    await expectInside(description, card);

    // One product: singular.
    await page.getByRole('searchbox', { name: 'Search' }).fill('Item 03');
    await expect(productCards(page)).toHaveCount(1);
    await expect(page.getByRole('status').filter({ hasText: 'result' })).toHaveText(
      '1 result for "Item 03"',
    );
  });

  test('at 390 px the search placeholder and every sort option read in full', async ({
    page,
    createProduct,
    signIn,
  }) => {
    await createMany(createProduct, 1);
    await page.setViewportSize(PHONE);
    await signIn();
    await expect(productCards(page)).toHaveCount(1);
    /** The text's width in the control's font, and the room the control leaves it. */
    const fit = (control: Locator, text: string) =>
      control.evaluate((element, shown) => {
        const style = getComputedStyle(element);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = style.font;
        const room =
          element.clientWidth -
          parseFloat(style.paddingLeft) -
          parseFloat(style.paddingRight) -
          // A native select's arrow may take room of its own beside the padding.
          (element.tagName === 'SELECT' && style.appearance !== 'none' ? 20 : 0);
        return { text: shown, width: Math.ceil(context.measureText(shown).width), room };
      }, text);
    const search = page.getByRole('searchbox', { name: 'Search' });
    const placeholder = (await search.getAttribute('placeholder'))!;
    const { width, room } = await fit(search, placeholder);
    expect(width, `"${placeholder}" fits`).toBeLessThanOrEqual(room);
    const sort = page.getByRole('combobox', { name: 'Sort by' });
    for (const label of await sort.locator('option').allTextContents()) {
      await sort.selectOption({ label });
      const shown = await fit(sort, label);
      expect(shown.width, `"${label}" fits`).toBeLessThanOrEqual(shown.room);
    }
    await expectNoSidewaysScroll(page);
  });

  test('grid columns by width: 1 on a phone to 5 on a wide screen', async ({
    page,
    createProduct,
    signIn,
  }) => {
    await createMany(createProduct, 6);
    await signIn();
    await expect(productCards(page)).toHaveCount(6);
    for (const [width, columns] of [
      [390, 1],
      [700, 2],
      [800, 3],
      [1100, 4],
      [1600, 5],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      const lefts = await productCards(page).evaluateAll(
        (cards) => new Set(cards.map((card) => Math.round(card.getBoundingClientRect().left))).size,
      );
      expect(lefts, `columns at ${width} px`).toBe(columns);
    }
  });

  test('search and sort are hidden on an empty catalogue, shown when a search finds nothing', async ({
    page,
    createProduct,
    signIn,
  }) => {
    await signIn();
    await expect(page.getByText('No products', { exact: true })).toBeVisible();
    await expect(page.getByRole('searchbox')).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveCount(0);

    await createProduct({ name: 'Lamp', price: 5, stock: 3, description: 'Bright.' });
    await page.goto('/?q=nothing-like-this');
    await expect(page.getByText('No products found')).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Sort by' })).toBeVisible();
  });
});

/** The contrast ratio of two sRGB colours (WCAG 2). */
function contrast(a: number[], b: number[]) {
  const luminance = ([r, g, b]: number[]) => {
    const [R, G, B] = [r!, g!, b!].map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/** The focused element's focus indicator (outline, else box-shadow) and the dialog's background. */
async function focusRingColours(page: Page) {
  return page.evaluate(() => {
    const toRgba = (colour: string) => {
      const context = document.createElement('canvas').getContext('2d')!;
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data];
    };
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    const ring =
      style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2
        ? style.outlineColor
        : (/(rgba?\([^)]*\)|oklch\([^)]*\)|#[0-9a-f]+)/i.exec(style.boxShadow)?.[1] ??
          'transparent');
    const popup = element.closest('[role="dialog"]')!;
    return {
      focused: `<${element.tagName.toLowerCase()} class="${element.className}">`,
      focusVisible: element.matches(':focus-visible'),
      ring: toRgba(ring),
      background: toRgba(getComputedStyle(popup).backgroundColor),
    };
  });
}

test.describe('item 12: the delete dialog', () => {
  test('Esc and a click outside cancel like the Cancel button; the dialog looks like the app', async ({
    page,
    createProduct,
    signIn,
  }) => {
    await createProduct({ name: 'Teapot', price: 5, stock: 2, description: 'Tea.' });
    await signIn();
    const card = productCard(page, 'Teapot');
    const dialog = page.getByRole('dialog');
    const remove = card.getByRole('button', { name: 'Delete Teapot' });

    await remove.click();
    await expect(dialog.getByText('Are you sure?')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog.getByText('Cancelled')).toBeVisible();
    await expect(dialog.getByText('Your product is safe')).toBeVisible();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog).toBeHidden();

    await remove.click();
    await expect(dialog.getByText('Are you sure?')).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(dialog.getByText('Cancelled')).toBeVisible();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog).toBeHidden();

    // Styled like the app: its font, and buttons shaped like the app's buttons.
    await remove.focus();
    await page.keyboard.press('Enter');
    const confirm = dialog.getByRole('button', { name: 'Yes, delete it!' });
    await expect(confirm).toBeVisible();
    // The modal hides the page from the accessibility tree: found by its address instead.
    const appButton = page.locator('a[href="/new/product"]');
    const look = (locator: Locator) =>
      locator.evaluate((element) => {
        const style = getComputedStyle(element);
        return {
          fontFamily: style.fontFamily,
          fontSize: style.fontSize,
          fontWeight: style.fontWeight,
          borderRadius: style.borderTopLeftRadius,
          paddingTop: style.paddingTop,
        };
      });
    expect(await look(confirm)).toEqual(await look(appButton));
    expect(await dialog.evaluate((element) => getComputedStyle(element).fontFamily)).toBe(
      await page.evaluate(() => getComputedStyle(document.body).fontFamily),
    );

    // The keyboard focus ring stands out from the dialog (WCAG 1.4.11: 3:1).
    for (const key of ['Tab', 'Tab']) {
      await page.keyboard.press(key);
      // Polled: the app's buttons fade their ring in (transition-colors).
      const ringContrast = async () => {
        const { focused, focusVisible, ring, background } = await focusRingColours(page);
        expect(focusVisible, focused).toBe(true);
        // The ring's alpha over the dialog's background.
        const alpha = ring[3]! / 255;
        const shown = ring.slice(0, 3).map((c, i) => c * alpha + background[i]! * (1 - alpha));
        return contrast(shown, background);
      };
      await expect.poll(ringContrast, { message: 'focus ring contrast' }).toBeGreaterThanOrEqual(3);
    }
    await page.keyboard.press('Escape');
    await expect(dialog.getByText('Cancelled')).toBeVisible();
  });

  test("'Deleted!', the server's message as a success toast; focus moves to the next card", async ({
    page,
    createProduct,
    signIn,
  }) => {
    for (const name of ['Cup C', 'Cup B', 'Cup A']) {
      await createProduct({ name, price: 5, stock: 2, description: 'A cup.' });
    }
    await signIn();
    const dialog = page.getByRole('dialog');
    const deleteAndConfirm = async (name: string) => {
      await productCard(page, name)
        .getByRole('button', { name: `Delete ${name}` })
        .click();
      await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
      await expect(dialog.getByText('Deleted!')).toBeVisible();
      await expect(dialog.getByText('Your product has been deleted.')).toBeVisible();
      await dialog.getByRole('button', { name: 'OK' }).click();
      await expect(dialog).toBeHidden();
      await expect(productCard(page, name)).toHaveCount(0);
    };

    // Newest first: Cup A, Cup B, Cup C. The first one's successor is Cup B.
    await deleteAndConfirm('Cup A');
    await expect(cardTitleLink(productCard(page, 'Cup B'))).toBeFocused();
    // The spec's delete flow: the server's message is also shown as a success notice, once.
    await expect(toast(page, 'Your product has been deleted.')).toHaveCount(1);

    // The last card: focus goes to the one before.
    await deleteAndConfirm('Cup C');
    await expect(cardTitleLink(productCard(page, 'Cup B'))).toBeFocused();

    // The list is empty: focus goes to its heading.
    await deleteAndConfirm('Cup B');
    await expect(page.getByText('No products', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeFocused();
  });
});

test.describe('item 13: form polish', () => {
  test('price with two decimals and $, thousands separators, honest placeholders', async ({
    page,
    createProduct,
    signIn,
  }) => {
    const product = await createProduct({
      name: 'Bolt',
      price: 19.5,
      stock: 2_000_000_000,
      description: 'Many bolts.',
    });
    await signIn();
    await expect(productCard(page, 'Bolt').getByText('2,000,000,000 units')).toBeVisible();

    await page.goto(`/details/product/${product.id}`);
    await expect(page.getByText('In Stock: 2,000,000,000')).toBeVisible();
    await expect(page.getByText('2,000,000,000 units')).toBeVisible();

    await page.goto(`/edit/product/${product.id}`);
    const price = page.getByLabel('Price', { exact: true });
    await expect(price).toHaveValue('19.50');
    // The $ sign shows inside the field, before the value.
    const dollar = price.locator('..').getByText('$', { exact: true });
    await expect(dollar).toBeVisible();
    expect((await dollar.boundingBox())!.x).toBeLessThan((await price.boundingBox())!.x + 20);
    await expect(page.getByLabel('Stock', { exact: true })).toHaveValue('2000000000');

    for (const url of ['/new/product', `/edit/product/${product.id}`]) {
      await page.goto(url);
      for (const label of ['Price', 'Stock']) {
        const input = page.getByLabel(label, { exact: true });
        const placeholder = await input.getAttribute('placeholder');
        const min = await input.getAttribute('min');
        if (placeholder && min) {
          expect(Number(placeholder), `${label} placeholder on ${url}`).toBeGreaterThanOrEqual(
            Number(min),
          );
        }
      }
    }
  });

  test("negative stock in the edit form and the API: the minimum's message", async ({
    page,
    request,
    token,
    createProduct,
    signIn,
  }) => {
    const product = await createProduct({
      name: 'Nail',
      price: 1,
      stock: 5,
      description: 'A nail.',
    });
    await signIn();
    await page.goto(`/edit/product/${product.id}`);
    await page.getByLabel('Stock', { exact: true }).fill('-1');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText(V.stockNegative)).toBeVisible();

    await page.goto('/new/product');
    await page.getByLabel('Stock', { exact: true }).fill('-1');
    await page.getByRole('button', { name: 'Create Product' }).click();
    await expect(page.getByText(V.stockMin)).toBeVisible();

    const response = await request.patch(`/api/products/${product.id}`, {
      headers: { authorization: `Bearer ${token}` },
      multipart: { stock: '-1' },
    });
    expect(response.status()).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(V.stockNegative);
  });

  test('a text file named .png is refused in the picker', async ({ page, signIn }) => {
    await signIn();
    await page.goto('/new/product');
    await page.getByLabel('Product Image', { exact: true }).setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('These are my notes, not a picture.\n'),
    });
    await expect(page.getByRole('alert').filter({ hasText: M.imageUnreadable })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Clear the chosen image' })).toHaveCount(0);
  });

  // Answers are faked with page.route, which requests a service worker answers would bypass.
  test.describe('without a service worker', () => {
    test.use({ serviceWorkers: 'block' });

    test('list, detail and edit errors offer Retry; an unknown product is "Product not found"', async ({
      page,
      createProduct,
      signIn,
    }) => {
      const product = await createProduct({
        name: 'Rope',
        price: 3,
        stock: 3,
        description: 'Rope.',
      });
      await signIn();
      // Each screen opens with nothing saved for offline: restored, what the step before read
      // would be shown instead of the error. The app saves a second after a change, and at once
      // as a page is left, so whether that save was done before the next page.goto was a race.
      // Without the mark of whose cache it is, the app restores nothing.
      await page.addInitScript(() => {
        try {
          localStorage.removeItem('OfflineCacheOwner');
        } catch {
          // about:blank has no storage of the app's.
        }
      });
      const failing = async (pattern: string, url: string, ready: Locator) => {
        await page.route(pattern, (route) =>
          route.fulfill({ status: 500, json: { message: 'Something broke' } }),
        );
        await page.goto(url);
        const message = page.getByText('Something broke');
        await expect(message).toBeVisible({ timeout: 15_000 });
        // A load failure: its message in red, centred.
        await expectTextColour(message, 'red');
        expect(await message.evaluate((element) => getComputedStyle(element).textAlign)).toBe(
          'center',
        );
        await page.unroute(pattern);
        await page.getByRole('button', { name: 'Retry' }).click();
        await expect(ready).toBeVisible();
      };
      await failing('**/api/products?**', '/', productCard(page, 'Rope'));
      await failing(
        `**/api/products/${product.id}`,
        `/details/product/${product.id}`,
        page.getByRole('heading', { name: 'Rope' }),
      );
      await failing(
        `**/api/products/${product.id}`,
        `/edit/product/${product.id}`,
        page.getByLabel('Name', { exact: true }),
      );

      const missing = randomUUID();
      await page.goto(`/details/product/${missing}`);
      await expect(page.getByRole('heading', { name: 'Product not found', level: 1 })).toBeVisible({
        timeout: 15_000,
      });
      await expect(page).toHaveTitle(/Product not found/);
      await page.goto(`/edit/product/${missing}`);
      await expect(page.getByRole('heading', { name: 'Product not found', level: 1 })).toBeVisible({
        timeout: 15_000,
      });
      await expect(page).toHaveTitle(/Product not found/);
      await page.getByRole('link', { name: 'Back to Products' }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  });
});

test.describe('items 8 and 9: the way back to the list, and what is announced', () => {
  test("'Back to Products' restores the list's search, sort and scroll", async ({
    page,
    createProduct,
    signIn,
  }) => {
    await longListOnAPhone(page, createProduct, signIn);
    await page.goto('/?q=Item&sort=name');
    await expect(productCards(page)).toHaveCount(17);
    const target = productCard(page, 'Item 12');
    await target.scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 200);
    // A wheel scroll may still be moving: the position kept is the one it comes to rest at.
    let scrolled = -1;
    await expect
      .poll(
        async () => {
          const y = await page.evaluate(() => window.scrollY);
          const resting = y === scrolled;
          scrolled = y;
          return resting && y > 600;
        },
        { intervals: [150] },
      )
      .toBe(true);

    await cardTitleLink(target).click();
    await expect(page.getByRole('heading', { name: 'Item 12', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Products' }).click();
    await expect(page).toHaveURL(/\/\?q=Item&sort=name$/);
    await expect(productCards(page)).toHaveCount(17);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 5);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 5);

    // From the create screen too.
    await page.goto('/?sort=price-desc');
    await expect(productCards(page)).toHaveCount(17);
    await page.getByRole('link', { name: /Add product/ }).click();
    await page.getByRole('link', { name: 'Back to Products' }).click();
    await expect(page).toHaveURL(/\/\?sort=price-desc$/);
  });

  test('the number of results after a search is announced politely', async ({
    page,
    createProduct,
    signIn,
  }) => {
    for (const name of ['Desk lamp', 'Floor lamp', 'Lamp shade', 'Chair']) {
      await createProduct({ name, price: 5, stock: 3, description: 'Home.' });
    }
    await signIn();
    await expect(productCards(page)).toHaveCount(4);
    const region = page.locator('[aria-live="polite"]').filter({ hasText: /result/ });
    await page.getByRole('searchbox', { name: 'Search' }).fill('lamp');
    await expect(productCards(page)).toHaveCount(3);
    await expect(region).toHaveText('3 results for "lamp"');
    await page.getByRole('searchbox', { name: 'Search' }).fill('sofa');
    await expect(page.getByText('No products found')).toBeVisible();
    await expect(region).toHaveText('No results for "sofa"');
  });
});
