import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { processImage, refusal } from '../../../../src/server/infra/images/pipeline.js';
import { jpeg, png } from '../../support/images.js';

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: { statusCode?: number }) => error.statusCode ?? 500,
  );

describe('image pipeline', () => {
  it('refuses formats libvips knows but we do not accept (TIFF) before decoding them', async () => {
    const tiff = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#000' },
    })
      .tiff()
      .toBuffer();
    expect(await statusOf(processImage(tiff))).toBe(415);
  });

  it('refuses an SVG, which libvips could otherwise render', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
    expect(await statusOf(processImage(svg))).toBe(415);
  });

  it('keeps the event loop free while it works', async () => {
    const input = await png(3000, 2000);
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 2);
    const started = performance.now();
    const result = await processImage(input);
    const took = performance.now() - started;
    clearInterval(timer);
    expect(result.width).toBe(1600);
    // Synchronous work would stall the timer for the whole run; libvips threads do not.
    expect(longestGap).toBeLessThan(Math.max(50, took / 3));
  });

  it('writes WebP without any metadata block', async () => {
    const input = await sharp(await jpeg(40, 30))
      .withMetadata({ orientation: 1 })
      .withExif({ IFD0: { Artist: 'Someone' } })
      .toBuffer();
    const { main, thumbnail } = await processImage(input);
    for (const output of [main, thumbnail]) {
      const metadata = await sharp(output).metadata();
      expect(metadata.format).toBe('webp');
      expect(metadata.exif).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
      expect(output.includes('Someone')).toBe(false);
    }
  });
});

describe('what a failed decode answers', () => {
  it("calls a file libvips cannot read the upload's fault, and running out of memory the server's", () => {
    for (const message of [
      'VipsJpeg: Premature end of input file',
      'Input buffer has corrupt header: pngload_buffer: libspng read error',
      'gifload_buffer: no frames in GIF',
    ]) {
      expect(refusal(new Error(message))).toMatchObject({ statusCode: 415 });
    }
    expect(refusal(new Error('Input image exceeds pixel limit'))).toMatchObject({
      statusCode: 413,
    });
    const fault = new Error('vips_malloc: out of memory allocating 3200000 bytes');
    expect(refusal(fault)).toBe(fault);
  });
});
