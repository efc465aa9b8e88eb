/**
 * `npm run icons`: the installed app's icons (the web app manifest's,
 * vite.config.ts), drawn by sharp from the logo's own SVG (components/Logo.tsx) and committed in
 * src/client/public/icons/. Run again only when the logo changes.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = fileURLToPath(new URL('../src/client/public/icons/', import.meta.url));

const GLYPH =
  '<path d="M8 12.5 16 8l8 4.5v9L16 26l-8-4.5v-9ZM8 12.5 16 17l8-4.5M16 17v9" fill="none" stroke="white" stroke-width="2" stroke-linejoin="round"/>';

/** The logo as it shows in the header: a rounded indigo square with the box drawn on it. */
const ROUNDED = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#6366f1"/>${GLYPH}</svg>`;

/**
 * A maskable icon is cut to any shape by the platform: the background fills the square and the
 * glyph keeps within the middle 80% (the safe zone), here scaled to 80%.
 */
const MASKABLE = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#6366f1"/><g transform="translate(3.2 3.2) scale(0.8)">${GLYPH}</g></svg>`;

const ICONS = [
  { file: 'icon-192.png', svg: ROUNDED, size: 192 },
  { file: 'icon-512.png', svg: ROUNDED, size: 512 },
  { file: 'maskable-512.png', svg: MASKABLE, size: 512 },
  { file: 'apple-touch-icon-180.png', svg: MASKABLE, size: 180 },
];

await mkdir(out, { recursive: true });
for (const { file, svg, size } of ICONS) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file));
}
console.log(`Icons written to ${out}`);
