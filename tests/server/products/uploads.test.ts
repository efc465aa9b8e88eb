import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import {
  avif,
  gif,
  gpsPhoto,
  html,
  jpeg,
  png,
  pngBomb,
  svg,
  webp,
  type FilePart,
} from '../support/images.js';
import {
  createProduct,
  fetchImage,
  getProduct,
  patchProduct,
  postProduct,
  storedState,
  validFields,
  withPlaces,
} from '../support/products.js';
import { signIn } from '../support/accounts.js';

describe('image uploads', async () => {
  const server = await build();
  const user = await signIn(server);

  it.each([
    ['JPEG', jpeg, 'image/jpeg'],
    ['PNG', png, 'image/png'],
    ['WebP', webp, 'image/webp'],
    ['GIF', gif, 'image/gif'],
    ['AVIF', avif, 'image/avif'],
  ])('accepts a real %s and stores it as WebP', async (_format, make, contentType) => {
    const product = await createProduct(server, user, {}, { data: await make(), contentType });
    const stored = await fetchImage(server, product.image);
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-type']).toBe('image/webp');
    expect(await sharp(stored.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 64,
      height: 48,
    });
  });

  it('trusts the bytes, not the name or type the client gives', async () => {
    const product = await createProduct(
      server,
      user,
      {},
      { data: await png(), filename: 'notes.txt', contentType: 'text/plain' },
    );
    expect(product.image).toMatch(/\.webp$/);
  });

  it('strips EXIF and GPS, and turns the picture upright first', async () => {
    const photo = await gpsPhoto(80, 40);
    const original = await sharp(photo).metadata();
    expect(original.exif?.includes('PhoneCo')).toBe(true);
    expect(original.orientation).toBe(6);

    const product = await createProduct(server, user, {}, { data: photo });
    for (const url of [product.image, product.thumbnail]) {
      const stored = (await fetchImage(server, url)).rawPayload;
      const metadata = await sharp(stored).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.orientation).toBeUndefined();
      // Orientation 6 is a quarter turn: the 80 × 40 sensor image is stored 40 × 80.
      expect([metadata.width, metadata.height]).toEqual([40, 80]);
      expect(stored.includes('Exif')).toBe(false);
      expect(stored.includes('PhoneCo')).toBe(false);
    }
  });

  it('bounds the long side to 1600 px and never enlarges', async () => {
    const big = await createProduct(server, user, {}, { data: await jpeg(1000, 2400) });
    const stored = await sharp((await fetchImage(server, big.image)).rawPayload).metadata();
    expect([stored.width, stored.height]).toEqual([667, 1600]);
    const thumb = await sharp((await fetchImage(server, big.thumbnail)).rawPayload).metadata();
    expect([thumb.width, thumb.height]).toEqual([200, 480]);
  });

  const truncatedJpeg = async () => {
    const whole = await jpeg(400, 300);
    return whole.subarray(0, Math.floor(whole.length / 2));
  };
  const sixMegabytes = () => {
    const data = Buffer.alloc(6 * 1024 * 1024, 7);
    data.set([0xff, 0xd8, 0xff, 0xe0]);
    return data;
  };

  const refusals: [string, () => Promise<FilePart[]>, number, string][] = [
    [
      'an SVG',
      async () => [{ data: svg, filename: 'logo.svg', contentType: 'image/svg+xml' }],
      415,
      'The file is not a supported image (JPEG, PNG, WebP, AVIF or GIF)',
    ],
    [
      'HTML renamed to .jpg',
      async () => [{ data: html, filename: 'photo.jpg', contentType: 'image/jpeg' }],
      415,
      'The file is not a supported image (JPEG, PNG, WebP, AVIF or GIF)',
    ],
    [
      'a truncated JPEG',
      async () => [{ data: await truncatedJpeg() }],
      415,
      'The file is not a supported image (JPEG, PNG, WebP, AVIF or GIF)',
    ],
    [
      'a zero-byte file',
      async () => [{ data: Buffer.alloc(0), filename: 'empty.jpg' }],
      415,
      'The file is not a supported image (JPEG, PNG, WebP, AVIF or GIF)',
    ],
    ['a 6 MB file', async () => [{ data: sixMegabytes() }], 413, 'The image must be at most 5 MB'],
    [
      'a decompression bomb',
      async () => [{ data: await pngBomb(), contentType: 'image/png' }],
      413,
      'The image must be at most 40 megapixels',
    ],
    [
      'two files',
      async () => [{ data: await jpeg() }, { data: await png() }],
      400,
      'Send at most one image',
    ],
    [
      'three files',
      async () => [{ data: await jpeg() }, { data: await png() }, { data: await webp() }],
      400,
      'Send at most one image',
    ],
  ];

  it.each(refusals)(
    'refuses %s on create, leaving no row and no file',
    async (_case, files, status, message) => {
      const before = await storedState(server);
      const res = await postProduct(server, user, validFields, ...(await files()));
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
      expect(await storedState(server)).toEqual(before);
    },
  );

  it.each(refusals)(
    'refuses %s on update, leaving the product and its files as they were',
    async (_case, files, status, message) => {
      const product = await createProduct(server, user, {}, { data: await jpeg() });
      const before = await storedState(server);
      const res = await patchProduct(server, user, product.id, { name: 'New' }, ...(await files()));
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
      expect((await getProduct(server, user, product.id)).json().product).toEqual(
        withPlaces(product),
      );
      expect(await storedState(server)).toEqual(before);
    },
  );
});
