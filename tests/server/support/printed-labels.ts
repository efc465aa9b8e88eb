import { execFile } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { tempDir } from './temp-dirs.js';

const run = promisify(execFile);

// The decoder's WebAssembly comes from the installed package, never from a CDN (its default).
prepareZXingModule({
  overrides: {
    wasmBinary: await readFile(
      createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'),
    ).then((bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
  },
  fireImmediately: true,
});

/** A page of a PDF as a printer at `dpi` would put it on paper: grey pixels, 0 black to 255 white. */
export interface PrintedPage {
  dpi: number;
  width: number;
  height: number;
  pixels: Buffer;
}

/** A box on a page in PDF points (72 to the inch), from the top left. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every page of the PDF, rendered by poppler's pdftoppm at `dpi`. */
export async function printPdf(pdf: Buffer, dpi = 300): Promise<PrintedPage[]> {
  const dir = await tempDir('stockroom-labels-');
  await writeFile(path.join(dir, 'labels.pdf'), pdf);
  await run('pdftoppm', ['-r', String(dpi), '-gray', '-png', 'labels.pdf', 'page'], { cwd: dir });
  const files = (await readdir(dir)).filter((name) => name.endsWith('.png')).sort();
  return Promise.all(
    files.map(async (name) => {
      const { data, info } = await sharp(path.join(dir, name))
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return { dpi, width: info.width, height: info.height, pixels: data };
    }),
  );
}

/** The box in pixels of the page, widened by `margin` pixels and kept on the page. */
function pixelBox(page: PrintedPage, box: Box, margin = 0) {
  const scale = page.dpi / 72;
  const left = Math.max(0, Math.floor(box.x * scale) - margin);
  const top = Math.max(0, Math.floor(box.y * scale) - margin);
  const right = Math.min(page.width, Math.ceil((box.x + box.width) * scale) + margin);
  const bottom = Math.min(page.height, Math.ceil((box.y + box.height) * scale) + margin);
  return { left, top, width: right - left, height: bottom - top };
}

/** What zxing-wasm reads in a box of the page: the text of every barcode or QR code found. */
export async function readCodes(page: PrintedPage, box: Box): Promise<string[]> {
  const { left, top, width, height } = pixelBox(page, box);
  const image = await sharp(page.pixels, {
    raw: { width: page.width, height: page.height, channels: 1 },
  })
    .extract({ left, top, width, height })
    .png()
    .toBuffer();
  const results = await readBarcodes(new Uint8Array(image), {
    formats: ['EAN-8', 'EAN-13', 'UPC-A', 'Code128', 'QRCode'],
    tryHarder: true,
    maxNumberOfSymbols: 4,
  });
  return results.filter((result) => result.isValid).map((result) => result.text);
}

/** Dark pixels of the page outside every one of the boxes (widened by a pixel for anti-aliasing). */
export function inkOutside(page: PrintedPage, boxes: Box[]): number {
  const inside = new Uint8Array(page.width * page.height);
  for (const box of boxes) {
    const { left, top, width, height } = pixelBox(page, box, 1);
    for (let y = top; y < top + height; y += 1)
      inside.fill(1, y * page.width + left, y * page.width + left + width);
  }
  let count = 0;
  for (let i = 0; i < page.pixels.length; i += 1) {
    if (page.pixels[i]! < 160 && !inside[i]) count += 1;
  }
  return count;
}

/** Dark pixels inside a box. */
export function inkInside(page: PrintedPage, box: Box): number {
  const { left, top, width, height } = pixelBox(page, box);
  let count = 0;
  for (let y = top; y < top + height; y += 1) {
    for (let x = left; x < left + width; x += 1)
      if (page.pixels[y * page.width + x]! < 160) count += 1;
  }
  return count;
}

/** The PDF's text as poppler's pdftotext extracts it (what a reader copies or searches). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await tempDir('stockroom-labels-text-');
  await writeFile(path.join(dir, 'labels.pdf'), pdf);
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', 'labels.pdf', '-'], { cwd: dir });
  return stdout;
}

/**
 * The words of the PDF's first page as poppler finds them (`pdftotext -bbox`), from left to
 * right, each with where it starts; a right-to-left word's characters from left to right too.
 */
export async function drawnWords(
  pdf: Buffer,
): Promise<{ text: string; x: number; y: number; right: number }[]> {
  const dir = await tempDir('stockroom-labels-words-');
  await writeFile(path.join(dir, 'labels.pdf'), pdf);
  const { stdout } = await run('pdftotext', ['-bbox', '-l', '1', 'labels.pdf', '-'], { cwd: dir });
  const decode = (text: string) =>
    text.replace(
      /&(amp|lt|gt|quot|apos);/g,
      (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name]!,
    );
  const words = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)<\/word>/g;
  return [...stdout.matchAll(words)]
    .map(([, x, y, right, text]) => ({
      text: decode(text!),
      x: Number(x),
      y: Number(y),
      right: Number(right),
    }))
    .sort((a, b) => a.x - b.x);
}

/**
 * How many glyphs the PDF draws as .notdef (the empty box of a character its font lacks): glyph
 * 0 in the text-showing operators of its content streams, whose fonts are all Identity-H (two
 * bytes a glyph).
 */
export function notdefGlyphs(pdf: Buffer): number {
  let count = 0;
  const text = pdf.toString('latin1');
  for (const match of text.matchAll(/\/FlateDecode[^]*?stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const [, shown] of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      for (const [, hex] of shown!.matchAll(/<([0-9a-fA-F]*)>/g)) {
        for (let i = 0; i + 4 <= hex!.length; i += 4)
          if (hex!.slice(i, i + 4) === '0000') count += 1;
      }
    }
  }
  return count;
}
