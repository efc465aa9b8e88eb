import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import type { Metadata, SharpOptions } from 'sharp';
import {
  IMAGE_MAX_EDGE,
  IMAGE_MAX_PIXELS,
  IMAGE_THUMBNAIL_EDGE,
} from '../../../shared/constants.js';
import { M } from '../../../shared/messages.js';
import { HttpError } from '../../lib/http-error.js';
import { keepOnSuccess } from '../../../shared/keep-on-success.js';

/** sharp and libvips (a fifth of a second and ~30 MB) are loaded by the first upload. */
const loadSharp = keepOnSuccess(async () => {
  const { default: sharp } = await import('sharp');
  // libvips runs on libuv's thread pool, off the event loop. One vips thread per image and no
  // operation cache: on a two-core box parallelism comes from concurrent requests, and a cache
  // would only keep decoded uploads in memory.
  sharp.concurrency(1);
  sharp.cache(false);
  return sharp;
});

const THUMBNAIL_EDGE = IMAGE_THUMBNAIL_EDGE;

/** What is stored for one upload: a bounded WebP and a card thumbnail, both without metadata. */
export interface ProcessedImage {
  main: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
}

const notAnImage = () => new HttpError(415, M.imageUnsupported);
const tooManyPixels = () => new HttpError(413, M.imageTooManyPixels);

/**
 * What sharp threw while decoding an upload, as the answer to it. libvips reports a file it cannot
 * read (corrupt, truncated, not what its signature said) with its loader's message: the upload's
 * fault, 415 (413 past the pixel limit). Running out of memory or threads is the server's: thrown
 * as it is, so the request answers 500 and the error is logged.
 */
export function refusal(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (/out of memory|vips_malloc|cannot allocate|thread/i.test(error.message)) return error;
  return /pixel limit/i.test(error.message) ? tooManyPixels() : notAnImage();
}

/**
 * Leading bytes of the formats we accept. Checked before sharp sees the data so that no other
 * decoder libvips carries (SVG, TIFF, …) ever parses an upload.
 */
function hasAcceptedSignature(data: Buffer): boolean {
  const ascii = (start: number, end: number) => data.toString('latin1', start, end);
  return (
    (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) ||
    ascii(0, 8) === '\x89PNG\r\n\x1a\n' ||
    ascii(0, 6) === 'GIF87a' ||
    ascii(0, 6) === 'GIF89a' ||
    (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') ||
    ascii(4, 8) === 'ftyp'
  );
}

function isAcceptedFormat(metadata: Metadata): boolean {
  const { format, compression } = metadata;
  // AVIF is reported as HEIF; HEIC (HEVC inside HEIF) is not on the list.
  if (format === 'heif') return compression === 'av1';
  return format === 'jpeg' || format === 'png' || format === 'webp' || format === 'gif';
}

/**
 * WebP effort 2 of 6: half the encoding time of the default 4 for files about 5 % larger, which
 * matters more on a small server than the bytes do.
 */
const EFFORT = 2;

const sharpOptions = {
  limitInputPixels: IMAGE_MAX_PIXELS,
  // 'error' refuses truncated and corrupt files but tolerates the harmless warnings many cameras
  // produce ("extraneous bytes"), which 'warning' would turn into refusals.
  failOn: 'error',
  sequentialRead: true,
} as const satisfies SharpOptions;

// Bounds how many uploads are decoded at once, each of which can hold tens of megabytes of pixels:
// one per core (each runs on one libvips thread). Process-wide on purpose: what it guards, the
// cores and the memory, belongs to the process.
const decodeSlots = pLimit(availableParallelism());

/**
 * Decodes an upload whatever its claimed name and type, and re-encodes it: auto-rotated, at most
 * IMAGE_MAX_EDGE on the long side, WebP, every metadata block (EXIF, GPS, XMP, ICC) dropped.
 * Throws 415 for anything that is not a JPEG, PNG, WebP, AVIF or GIF, 413 past the pixel limit.
 */
export function processImage(data: Buffer): Promise<ProcessedImage> {
  if (data.length === 0 || !hasAcceptedSignature(data)) return Promise.reject(notAnImage());
  return decodeSlots(async () => {
    const sharp = await loadSharp();
    const metadata = await sharp(data, sharpOptions)
      .metadata()
      .catch((error: unknown) => {
        throw refusal(error);
      });
    if (!isAcceptedFormat(metadata)) throw notAnImage();
    // Header dimensions first: a decompression bomb is refused before a single pixel is decoded.
    const pageHeight = metadata.pageHeight ?? metadata.height;
    if (metadata.width * pageHeight > IMAGE_MAX_PIXELS) throw tooManyPixels();

    const main = await sharp(data, sharpOptions)
      .autoOrient()
      .resize(IMAGE_MAX_EDGE, IMAGE_MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80, effort: EFFORT })
      .toBuffer({ resolveWithObject: true })
      .catch((error: unknown) => {
        throw refusal(error);
      });
    // The thumbnail starts from the small, already clean result: cheaper than decoding twice.
    const thumbnail = await sharp(main.data)
      .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75, effort: EFFORT })
      .toBuffer();
    return { main: main.data, thumbnail, width: main.info.width, height: main.info.height };
  });
}
