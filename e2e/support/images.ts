import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { ENV, requireEnv } from './env.js';

/** The upload files the global setup generates: real images that the server's pipeline decodes. */
const IMAGES = {
  /** A noisy 900x600 JPEG of a few hundred kB: big enough to watch an upload progress. */
  crate: 'crate.jpg',
  /** A small PNG of a different colour, for replacing an image. */
  shelf: 'shelf.png',
  /** A 3:1 panorama (1500x500 JPEG): a square crop would cut its sides off. */
  panorama: 'panorama.jpg',
  /** A 1:3 poster (400x1200 PNG): a square crop would cut its top and bottom off. */
  poster: 'poster.png',
  /** A tiny 14x25 GIF: blown up to the page's image box it would be a blur. */
  tiny: 'tiny.gif',
} as const;

export type ImageName = keyof typeof IMAGES;

/** The average colour of each image: the noise averages to mid grey, the shelf is solid blue. */
export const IMAGE_RGB: Record<ImageName, [number, number, number]> = {
  crate: [127, 127, 127],
  shelf: [30, 120, 200],
  panorama: [200, 120, 40],
  poster: [40, 160, 90],
  tiny: [180, 40, 160],
};

/** The pixel size of each generated image, as the files have it. */
export const IMAGE_SIZE: Record<ImageName, { width: number; height: number }> = {
  crate: { width: 900, height: 600 },
  shelf: { width: 400, height: 300 },
  panorama: { width: 1500, height: 500 },
  poster: { width: 400, height: 1200 },
  tiny: { width: 14, height: 25 },
};

/** A one-colour image of `name`'s size and colour. */
const solid = (name: ImageName) => {
  const [r, g, b] = IMAGE_RGB[name];
  return sharp({ create: { ...IMAGE_SIZE[name], channels: 3, background: { r, g, b } } });
};

export async function generateImages(dir: string): Promise<void> {
  const { width, height } = IMAGE_SIZE.crate;
  // Noise does not compress: the JPEG stays large, so its upload takes measurable time when throttled.
  const noise = randomBytes(width * height * 3);
  await sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toFile(path.join(dir, IMAGES.crate));
  await solid('shelf').png().toFile(path.join(dir, IMAGES.shelf));
  await solid('panorama').jpeg().toFile(path.join(dir, IMAGES.panorama));
  await solid('poster').png().toFile(path.join(dir, IMAGES.poster));
  await solid('tiny').gif().toFile(path.join(dir, IMAGES.tiny));
}

/** The path of a generated image, for `setInputFiles` or a multipart upload. */
export const imagePath = (name: ImageName) => path.join(requireEnv(ENV.filesDir), IMAGES[name]);
