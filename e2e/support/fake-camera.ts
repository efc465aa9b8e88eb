import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import bwipjs from 'bwip-js';
import sharp from 'sharp';
import { PLAYWRIGHT_CHROMIUM_ARGS, chromiumPath } from './chromium.js';

const run = promisify(execFile);

/** The fake camera's picture size: a common webcam's. */
const WIDTH = 640;
const HEIGHT = 480;
/** The picture fills this share of the frame, like a label held a hand's width from the lens. */
const FILL = 0.85;

const MM_PER_INCH = 25.4;

/** The first label of an Avery L7160 sheet, in millimetres from the page's top left. */
export const L7160_FIRST_LABEL = { left: 7.25, top: 15.15, width: 63.5, height: 38.1 };

/** A barcode as bwip-js draws it (`bcid`: 'ean13', 'code128', 'qrcode'...), as a PNG. */
export const drawBarcode = (bcid: string, text: string) =>
  bwipjs.toBuffer({ bcid, text, scale: 4, height: 18, paddingwidth: 10, paddingheight: 10 });

/**
 * The first label of an A4 sheet as printed: page 1 of the PDF rendered by poppler's pdftoppm,
 * cut at the label's place on the sheet (millimetres from the page's top left).
 */
export async function printedLabel(
  pdf: Buffer,
  cell: { left: number; top: number; width: number; height: number },
  dpi = 300,
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-sheet-'));
  try {
    await writeFile(path.join(dir, 'sheet.pdf'), pdf);
    await run(
      'pdftoppm',
      [
        '-r',
        String(dpi),
        '-gray',
        '-png',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        'sheet.pdf',
        'page',
      ],
      { cwd: dir },
    );
    const px = (mm: number) => Math.round((mm / MM_PER_INCH) * dpi);
    return await sharp(await readFile(path.join(dir, 'page.png')))
      .extract({
        left: px(cell.left),
        top: px(cell.top),
        width: px(cell.width),
        height: px(cell.height),
      })
      .png()
      .toBuffer();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A video file for Chromium's fake camera (--use-file-for-fake-video-capture): the picture on
 * white, scaled into the frame, as YUV4MPEG2 4:2:0 (what Chromium reads without ffmpeg). Chromium
 * plays it in a loop, so the code stays in view for as long as the test runs.
 */
async function cameraVideo(picture: Buffer): Promise<string> {
  const fitted = await sharp(picture)
    .resize({ width: Math.round(WIDTH * FILL), height: Math.round(HEIGHT * FILL), fit: 'inside' })
    .toBuffer();
  const luma = await sharp({
    create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#ffffff' },
  })
    .composite([{ input: fitted, gravity: 'centre' }])
    .greyscale()
    .raw()
    .toBuffer();
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma.subarray(0, WIDTH * HEIGHT), chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`);
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'stockroom-camera-')), 'camera.y4m');
  await writeFile(file, Buffer.concat([header, frame, frame, frame]));
  return file;
}

/**
 * A Chromium of its own whose camera films `picture` (one camera file per browser process); the
 * file goes when the browser does.
 */
export async function browserFilming(picture: Buffer): Promise<Browser> {
  const video = await cameraVideo(picture);
  const removeVideo = () => rm(path.dirname(video), { recursive: true, force: true });
  try {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        ...PLAYWRIGHT_CHROMIUM_ARGS,
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    browser.on('disconnected', () => void removeVideo());
    return browser;
  } catch (error) {
    await removeVideo();
    throw error;
  }
}
