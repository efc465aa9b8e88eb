import type { Browser, Locator } from '@playwright/test';
import type { Api, ApiProduct } from './support/api.js';
import { ENV, requireEnv } from './support/env.js';
import { expect, test } from './support/fixtures.js';
import { IMAGE_SIZE, type ImageName } from './support/images.js';
import { expectShowsImage } from './support/ui.js';

/**
 * The detail page's picture: asked for first, at the size the screen shows,
 * whole, and never blown up past its own pixels. Real images uploaded through the API.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

/** A signed-in page of `token`'s session at this viewport (one CSS pixel per device pixel). */
async function openDetails(
  browser: Browser,
  token: string,
  product: ApiProduct,
  viewport = DESKTOP,
) {
  const context = await browser.newContext({
    baseURL: requireEnv(ENV.baseUrl),
    viewport,
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  await page.goto('/api/health');
  await page.evaluate((value) => localStorage.setItem('AccessToken', value), token);
  const imageRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/images/'))
      imageRequests.push(request.url());
  });
  await page.goto(`/details/product/${product.id}`);
  const image = page.getByRole('img', { name: product.name });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
  return { page, image, imageRequests, close: () => context.close() };
}

/**
 * Where the picture is painted inside its <img> box, by the box's object-fit (the img's own
 * width and height are the box; the picture is what is drawn in it), next to the picture's
 * intrinsic size.
 */
function paintedPicture(image: Locator) {
  return image.evaluate((img: HTMLImageElement) => {
    const style = getComputedStyle(img);
    const box = {
      width: img.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      height: img.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
    };
    const natural = { width: img.naturalWidth, height: img.naturalHeight };
    const contain = Math.min(box.width / natural.width, box.height / natural.height);
    const cover = Math.max(box.width / natural.width, box.height / natural.height);
    const scale =
      {
        contain,
        cover,
        'scale-down': Math.min(1, contain),
        none: 1,
      }[style.objectFit] ?? NaN;
    const painted =
      style.objectFit === 'fill'
        ? box
        : { width: natural.width * scale, height: natural.height * scale };
    return { box, natural, painted, objectFit: style.objectFit };
  });
}

async function upload(api: Api, token: string, image: ImageName) {
  return api.createProduct(token, {
    name: `Picture ${image}`,
    price: 10,
    stock: 3,
    description: `A product with the ${image} image.`,
    image,
  });
}

test('the picture is fetched first, never lazily, and a phone downloads the thumbnail, a desktop the full image', async ({
  browser,
  api,
  token,
}) => {
  const product = await upload(api, token, 'crate');
  expect(product.thumbnail).not.toBe(product.image);

  const phone = await openDetails(browser, token, product, PHONE);
  await expect(phone.image).toHaveAttribute('fetchpriority', 'high');
  await expect(phone.image).not.toHaveAttribute('loading', 'lazy');
  await expect(phone.image).toHaveAttribute('srcset', /\d+w/);
  await expect(phone.image).toHaveAttribute('sizes', /.+/);
  // Width and height of the file: the browser knows the picture's shape before it arrives.
  await expect(phone.image).toHaveAttribute('width', String(IMAGE_SIZE.crate.width));
  await expect(phone.image).toHaveAttribute('height', String(IMAGE_SIZE.crate.height));
  await expectShowsImage(phone.image, 'crate');
  expect(phone.imageRequests, 'the phone downloads the 480 px thumbnail only').toEqual([
    product.thumbnail,
  ]);
  await phone.close();

  const desktop = await openDetails(browser, token, product, DESKTOP);
  await expectShowsImage(desktop.image, 'crate');
  expect(desktop.imageRequests, 'the desktop downloads the full image only').toEqual([
    product.image,
  ]);
  await desktop.close();
});

for (const name of ['panorama', 'poster'] as const) {
  test(`a ${name} is shown whole, not cropped to a square`, async ({ browser, api, token }) => {
    const product = await upload(api, token, name);
    const file = IMAGE_SIZE[name];
    for (const viewport of [PHONE, DESKTOP]) {
      const details = await openDetails(browser, token, product, viewport);
      await expectShowsImage(details.image, name);
      const { box, painted, objectFit } = await paintedPicture(details.image);
      const where = `${viewport.width}px wide, object-fit ${objectFit}`;
      // The whole picture fits inside its box...
      expect(painted.width, where).toBeLessThanOrEqual(box.width + 0.5);
      expect(painted.height, where).toBeLessThanOrEqual(box.height + 0.5);
      // ...with the file's own proportions.
      expect(painted.width / painted.height, where).toBeCloseTo(file.width / file.height, 1);
      // And it is not shown as a sliver: it fills the box in one direction.
      expect(
        Math.max(painted.width / box.width, painted.height / box.height),
        where,
      ).toBeGreaterThan(0.99);
      await details.close();
    }
  });
}

test('a tiny picture is shown at most at its own size, not blown up to a blur', async ({
  browser,
  api,
  token,
}) => {
  const product = await upload(api, token, 'tiny');
  const file = IMAGE_SIZE.tiny;
  for (const viewport of [PHONE, DESKTOP]) {
    const details = await openDetails(browser, token, product, viewport);
    await expectShowsImage(details.image, 'tiny');
    const { painted } = await paintedPicture(details.image);
    const where = `${viewport.width}px wide: painted ${painted.width}x${painted.height}`;
    // At its own size (one CSS pixel per pixel of the file here): not larger, and not shrunk.
    expect(painted.width, where).toBeLessThanOrEqual(file.width + 0.01);
    expect(painted.height, where).toBeLessThanOrEqual(file.height + 0.01);
    expect(painted.width, where).toBeGreaterThan(file.width - 1);
    expect(painted.height, where).toBeGreaterThan(file.height - 1);
    await details.close();
  }
});
