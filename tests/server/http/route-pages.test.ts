import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeRoutePages } from '../../../scripts/route-pages.js';
import { build } from '../support/build.js';

const HTML = '<!doctype html><html><head><title>Stockroom</title></head><body></body></html>';

/** A manifest of the shape Vite writes, naming every module scripts/route-pages.ts asks for. */
const chunk = (file: string, imports: string[] = [], css?: string[]) => ({ file, imports, css });
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true },
  'app/layouts/MainLayout.tsx': chunk('assets/MainLayout-1.js', ['_Button-1.js', 'index.html']),
  _Button: chunk('assets/unused.js'),
  '_Button-1.js': chunk('assets/Button-1.js'),
  'features/products/components/ProductsPage.tsx': chunk(
    'assets/ProductsPage-1.js',
    ['_Button-1.js'],
    ['assets/ProductsPage-1.css'],
  ),
  'features/products/api/get-products.ts': chunk('assets/get-products-1.js'),
  'features/products/api/get-products-summary.ts': chunk('assets/get-products-summary-1.js'),
  'features/products/api/get-movements.ts': chunk('assets/get-movements-1.js'),
  'features/products/components/ProductDetails.tsx': chunk('assets/ProductDetails-1.js'),
  'features/products/api/get-product.ts': chunk('assets/get-product-1.js'),
  'lib/axios-instance.ts': chunk('assets/axios-instance-1.js'),
  '../shared/schemas/auth.ts': chunk('assets/auth-1.js'),
  '../shared/schemas/products.ts': chunk('assets/products-1.js'),
  '../shared/schemas/catalogue.ts': chunk('assets/catalogue-1.js', [
    '../shared/schemas/products.ts',
  ]),
};

describe('scripts/route-pages (run by npm run build:client)', () => {
  it('writes the list and details pages with modulepreload hints for their code, and drops the manifest', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'stockroom-route-pages-'));
    afterAll(() => rm(dir, { recursive: true, force: true }));
    await mkdir(path.join(dir, '.vite'));
    await writeFile(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    await writeFile(path.join(dir, 'index.html'), HTML);

    await writeRoutePages(dir);

    expect((await readdir(dir)).sort()).toEqual([
      'index.details.html',
      'index.html',
      'index.list.html',
    ]);
    const list = await readFile(path.join(dir, 'index.list.html'), 'utf8');
    const preloaded = [...list.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map(
      (match) => match[1],
    );
    expect(preloaded.sort()).toEqual(
      [
        '/assets/MainLayout-1.js',
        '/assets/Button-1.js',
        '/assets/ProductsPage-1.js',
        '/assets/get-products-1.js',
        '/assets/get-products-summary-1.js',
        '/assets/catalogue-1.js',
        '/assets/axios-instance-1.js',
        '/assets/auth-1.js',
        '/assets/products-1.js',
      ].sort(),
    );
    expect(list).toContain('<link rel="preload" as="style" href="/assets/ProductsPage-1.css">');
    // The entry is in the page already; the details' code is not the list's.
    expect(list).not.toContain('index-1.js');
    expect(list).not.toContain('ProductDetails');
    expect(list).not.toContain('get-movements');
    const details = await readFile(path.join(dir, 'index.details.html'), 'utf8');
    expect(details).toContain('href="/assets/ProductDetails-1.js"');
    // A product's page shows its stock history at once: its request and schema come too.
    expect(details).toContain('href="/assets/get-movements-1.js"');
    expect(details).toContain('href="/assets/catalogue-1.js"');
    expect(await readFile(path.join(dir, 'index.html'), 'utf8')).toBe(HTML);
  });
});

describe('the page sent for each client-side route', async () => {
  const clientDir = await mkdtemp(path.join(tmpdir(), 'stockroom-client-'));
  afterAll(() => rm(clientDir, { recursive: true, force: true }));
  for (const page of ['index', 'index.list', 'index.details']) {
    await writeFile(path.join(clientDir, `${page}.html`), `<!doctype html><title>${page}</title>`);
  }
  const server = await build({ clientDir });

  it.each([
    ['/', 'index.list'],
    ['/?q=lamp&sort=name', 'index.list'],
    ['/details/product/0f6e8a0c-0000-4000-8000-000000000000', 'index.details'],
    ['/edit/product/0f6e8a0c-0000-4000-8000-000000000000', 'index'],
    ['/auth/login', 'index'],
    ['/profile', 'index'],
  ])('%s gets %s.html, never cached, under the CSP', async (url, page) => {
    const res = await server.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`<!doctype html><title>${page}</title>`);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });
});
