import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { ENV, requireEnv } from './env.js';

/** The upload files the global setup generates: real images that the server's pipeline decodes. */
export const IMAGES = {
  /** A noisy 900x600 JPEG of a few hundred kB: big enough to watch an upload progress. */
  crate: 'crate.jpg',
  /** A small PNG of a different colour, for replacing an image. */
  shelf: 'shelf.png',
} as const;

export type ImageName = keyof typeof IMAGES;

/** The average colour of each image: the noise averages to mid grey, the shelf is solid blue. */
export const IMAGE_RGB: Record<ImageName, [number, number, number]> = {
  crate: [127, 127, 127],
  shelf: [30, 120, 200],
};

export async function generateImages(dir: string): Promise<void> {
  const width = 900;
  const height = 600;
  // Noise does not compress: the JPEG stays large, so its upload takes measurable time when throttled.
  const noise = randomBytes(width * height * 3);
  await sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toFile(path.join(dir, IMAGES.crate));
  await sharp({
    create: {
      width: 400,
      height: 300,
      channels: 3,
      background: { r: IMAGE_RGB.shelf[0], g: IMAGE_RGB.shelf[1], b: IMAGE_RGB.shelf[2] },
    },
  })
    .png()
    .toFile(path.join(dir, IMAGES.shelf));
}

/** The path of a generated image, for `setInputFiles` or a multipart upload. */
export const imagePath = (name: ImageName) => path.join(requireEnv(ENV.filesDir), IMAGES[name]);
