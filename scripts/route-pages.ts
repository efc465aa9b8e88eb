/**
 * Writes, beside the built index.html, one copy per signed-in screen that a first visit usually
 * opens (the list, a product's details) with `<link rel="modulepreload">` for the code that screen
 * will ask for: its layout and screen chunks, the HTTP client and the response schemas. The
 * browser then fetches them with the entry instead of one round trip after it; the server sends
 * the copy that fits the path (src/server/client-pages.ts). Reads Vite's manifest, then removes it
 * (build metadata is not the app's to serve). Run after `vite build`, before precompress.ts.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTE_PAGES } from '../src/server/client-pages.js';

interface Chunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, Chunk>;

/**
 * The modules a page wants before it runs: the source files its screen asks for (the list's
 * summary and a product's stock history are read with the page's first data).
 */
const PAGE_SOURCES: Record<keyof typeof ROUTE_PAGES, string[]> = {
  list: [
    'app/layouts/MainLayout.tsx',
    'features/products/components/ProductsPage.tsx',
    'features/products/api/get-products.ts',
    'features/products/api/get-products-summary.ts',
    '../shared/schemas/catalogue.ts',
  ],
  details: [
    'app/layouts/MainLayout.tsx',
    'features/products/components/ProductDetails.tsx',
    'features/products/api/get-product.ts',
    'features/products/api/get-movements.ts',
    '../shared/schemas/catalogue.ts',
  ],
};
/** What every signed-in first screen asks for: the HTTP client and the schemas of its answers. */
const SIGNED_IN = [
  'lib/axios-instance.ts',
  '../shared/schemas/auth.ts',
  '../shared/schemas/products.ts',
];

/** A chunk's file and those of everything it imports statically, entry chunks left out. */
function filesOf(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (chunk.isEntry || seen.has(key)) return seen;
  seen.add(key);
  for (const imported of chunk.imports ?? []) filesOf(manifest, imported, seen);
  return seen;
}

export async function writeRoutePages(dir: string) {
  const manifestFile = path.join(dir, '.vite', 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
  const html = await readFile(path.join(dir, 'index.html'), 'utf8');
  for (const [page, sources] of Object.entries(PAGE_SOURCES)) {
    const keys = new Set<string>();
    for (const source of [...sources, ...SIGNED_IN]) filesOf(manifest, source, keys);
    const links = [...keys].flatMap((key) => {
      const chunk = manifest[key]!;
      return [
        `<link rel="modulepreload" crossorigin href="/${chunk.file}">`,
        ...(chunk.css ?? []).map((css) => `<link rel="preload" as="style" href="/${css}">`),
      ];
    });
    const withHints = html.replace('</head>', `    ${links.join('\n    ')}\n  </head>`);
    await writeFile(path.join(dir, ROUTE_PAGES[page as keyof typeof ROUTE_PAGES]), withHints);
  }
  await rm(path.join(dir, '.vite'), { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeRoutePages(process.argv[2] ?? 'dist/client');
}
