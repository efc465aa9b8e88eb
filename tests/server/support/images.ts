import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** Real pictures made at test time: no binary fixtures in the repository. */
const picture = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } },
  }).composite([
    {
      input: {
        create: { width: Math.ceil(width / 2), height, channels: 3, background: '#2040a0' },
      },
      left: 0,
      top: 0,
    },
  ]);

export const jpeg = (width = 64, height = 48) => picture(width, height).jpeg().toBuffer();
export const png = (width = 64, height = 48) => picture(width, height).png().toBuffer();
export const webp = (width = 64, height = 48) => picture(width, height).webp().toBuffer();
export const gif = (width = 64, height = 48) => picture(width, height).gif().toBuffer();
export const avif = (width = 64, height = 48) => picture(width, height).avif().toBuffer();

/** A phone photo: EXIF with camera and GPS position, rotated by the orientation tag. */
export const gpsPhoto = async (width = 80, height = 40) =>
  sharp(await picture(width, height).jpeg().toBuffer())
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Snap 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4000/100',
      },
    })
    .toBuffer();

/**
 * A decompression bomb: a tiny PNG whose header claims 20,000 × 20,000 pixels (400 megapixels).
 * Made by rewriting the IHDR of a real 1 × 1 PNG and fixing its checksum.
 */
export async function pngBomb(): Promise<Buffer> {
  const data = Buffer.from(await png(1, 1));
  // Signature (8) + length (4) + "IHDR" (4), then width and height.
  data.writeUInt32BE(20_000, 16);
  data.writeUInt32BE(20_000, 20);
  data.writeUInt32BE(crc32(data.subarray(12, 29)) >>> 0, 29);
  return data;
}

export const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
);
export const html = Buffer.from(
  '<!doctype html><html><body><script>alert(1)</script></body></html>',
);

export interface FilePart {
  field?: string;
  data: Buffer;
  filename?: string;
  contentType?: string;
}

/**
 * A multipart body for inject() or a raw socket: text fields, then files (default field `image`),
 * encoded by Node's own FormData as fetch would send it.
 */
export async function multipart(fields: Record<string, string>, ...files: FilePart[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    const blob = new Blob([new Uint8Array(file.data)], { type: file.contentType ?? 'image/jpeg' });
    form.append(file.field ?? 'image', blob, file.filename ?? 'photo.jpg');
  }
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}

/**
 * A multipart body written by hand, for what form-data will not produce: repeated fields, the
 * empty file part of a browser's unused file input, broken framing. `tail` goes before the end.
 */
export function rawMultipart(fields: [string, string][], tail = '') {
  const boundary = 'test-boundary';
  const parts = fields
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `${parts}${tail.replaceAll('BOUNDARY', boundary)}--${boundary}--\r\n`,
  };
}

/**
 * Names an image storage opens nothing for: well-formed but never stored, and the ones it never
 * gives (a path out of its folder, a sub-folder, another extension).
 */
export const NAMES_NEVER_OPENED = [
  'ffffffffffffffffffffffffffffffff.webp',
  '../secret.webp',
  'a/b.webp',
  'x.png',
];
