import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CatalogueRole } from '@shared/catalogue-roles.js';
import { ProductDetails } from '@/features/products/components/ProductDetails.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { ScanScreen } from '@/features/scan/components/ScanScreen.js';
import { renderRoute } from '../../support/render.js';
import { requests, server } from '../../support/server.js';
import { movement } from '../products/catalogue.js';
import { listed, product } from '../products/fixtures.js';
import { answerCatalogues } from './fixtures.js';

/** The shared catalogue c1's list and summary, at its own paths. */
function answerSharedList() {
  server.use(
    http.get('/api/catalogues/c1/products', () =>
      HttpResponse.json({ products: [listed({ id: 'p1', name: 'Lamp' })], nextCursor: null }),
    ),
    http.get('/api/catalogues/c1/products/summary', () =>
      HttpResponse.json({ count: 1, units: 24, value: 100, toReorder: 0 }),
    ),
  );
}

const showList = async (role: CatalogueRole) => {
  answerCatalogues(role);
  answerSharedList();
  const rendered = renderRoute(<ProductsPage />, {
    path: '/catalogues/:catalogueId',
    url: '/catalogues/c1',
  });
  await screen.findByRole('link', { name: 'Lamp' });
  // The role is known once the catalogues are read.
  await waitFor(async () =>
    expect((await requests()).map(({ path }) => path)).toContain('/catalogues'),
  );
  return rendered;
};

const link = (name: string | RegExp) => screen.queryByRole('link', { name });
const button = (name: string | RegExp) => screen.queryByRole('button', { name });

describe('a shared catalogue by role', () => {
  it('reads its products from its own paths and links inside it (editor: everything)', async () => {
    await showList('editor');
    await waitFor(() =>
      expect(link(/Add product/)).toHaveAttribute('href', '/catalogues/c1/products/create'),
    );
    expect(screen.getAllByRole('link', { name: 'Import CSV' })[0]).toHaveAttribute(
      'href',
      '/catalogues/c1/products/import',
    );
    expect(link('Lamp')).toHaveAttribute('href', '/catalogues/c1/products/p1');
    expect(link('Edit Lamp')).toHaveAttribute('href', '/catalogues/c1/products/p1/edit');
    expect(button('Delete Lamp')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Lamp' })).toBeInTheDocument();
    expect(button('Increase stock of Lamp')).toBeInTheDocument();
    const paths = (await requests()).map(({ path }) => path);
    expect(paths).toContain('/catalogues/c1/products');
    expect(paths.filter((path) => path.startsWith('/products'))).toEqual([]);
  });

  it('shows a viewer no write controls, only reading and export', async () => {
    await showList('viewer');
    expect(link(/Add product/)).not.toBeInTheDocument();
    expect(link('Import CSV')).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Export CSV' }).length).toBeGreaterThan(0);
    expect(link('Edit Lamp')).not.toBeInTheDocument();
    expect(button('Delete Lamp')).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select Lamp' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select all on page' })).not.toBeInTheDocument();
    // No stock stepper, no scan.
    expect(button('Increase stock of Lamp')).not.toBeInTheDocument();
    expect(button('Set stock of Lamp')).not.toBeInTheDocument();
    expect(link('Scan')).not.toBeInTheDocument();
  });

  it('gives the stock role the stepper, scan and labels, but no create, edit, delete, import or export', async () => {
    await showList('stock');
    expect(link('Scan')).toHaveAttribute('href', '/catalogues/c1/scan');
    expect(button('Increase stock of Lamp')).toBeInTheDocument();
    expect(link(/Add product/)).not.toBeInTheDocument();
    expect(link('Import CSV')).not.toBeInTheDocument();
    expect(button('Export CSV')).not.toBeInTheDocument();
    // Counting stock by location is stock work: its import, not the export.
    act(() => screen.getAllByRole('button', { name: 'Stock by location' }).at(-1)!.click());
    expect(screen.getByRole('menuitem', { name: 'Import stock by location' })).toHaveAttribute(
      'href',
      '/catalogues/c1/products/stock-by-location/import',
    );
    expect(
      screen.queryByRole('menuitem', { name: 'Export stock by location' }),
    ).not.toBeInTheDocument();
    act(() => screen.getAllByRole('button', { name: 'Stock by location' }).at(-1)!.click());
    expect(link('Edit Lamp')).not.toBeInTheDocument();
    expect(button('Delete Lamp')).not.toBeInTheDocument();
    // Chosen for labels, and for nothing a stock member may not do.
    act(() => screen.getByRole('checkbox', { name: 'Select Lamp' }).click());
    const bar = await screen.findByRole('region', { name: 'Selected products' });
    expect(within(bar).getByRole('button', { name: /Print labels/ })).toBeInTheDocument();
    expect(within(bar).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });
});

describe('a shared catalogue product page by role', () => {
  const showProduct = async (role: CatalogueRole) => {
    answerCatalogues(role);
    server.use(
      http.get('/api/catalogues/c1/products/p1', () => HttpResponse.json({ product: product() })),
      http.get('/api/catalogues/c1/products/p1/movements', () =>
        HttpResponse.json({
          movements: [
            {
              ...movement({ id: 'm2', source: 'adjustment', delta: 2, oldStock: 22, newStock: 24 }),
              actor: { id: 'u2', name: 'Grace' },
            },
            { ...movement(), actor: null },
          ],
          nextCursor: null,
        }),
      ),
    );
    renderRoute(<ProductDetails />, {
      path: '/catalogues/:catalogueId/products/:productId',
      url: '/catalogues/c1/products/p1',
    });
    await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 });
  };

  it('shows an editor every action, with links inside the catalogue', async () => {
    await showProduct('editor');
    await waitFor(() =>
      expect(link('Edit Product')).toHaveAttribute('href', '/catalogues/c1/products/p1/edit'),
    );
    expect(link('Duplicate')).toHaveAttribute('href', '/catalogues/c1/products/create');
    expect(button('Delete Desk Lamp')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Adjust stock' })).toBeInTheDocument();
  });

  it('shows a viewer the product and its history, without edit, delete, labels or stepper', async () => {
    await showProduct('viewer');
    await screen.findByText('Stock history');
    expect(link('Edit Product')).not.toBeInTheDocument();
    expect(link('Duplicate')).not.toBeInTheDocument();
    expect(button('Delete Desk Lamp')).not.toBeInTheDocument();
    expect(button('Print labels')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Adjust stock' })).not.toBeInTheDocument();
  });

  it('names who made each movement', async () => {
    await showProduct('viewer');
    expect(await screen.findByText('by Grace')).toBeInTheDocument();
    expect(screen.getAllByText(/^by /)).toHaveLength(1);
  });
});

describe('the scan screen of a viewer', () => {
  it('only looks products up', async () => {
    answerCatalogues('viewer');
    renderRoute(<ScanScreen />, {
      path: '/catalogues/:catalogueId/scan',
      url: '/catalogues/c1/scan',
    });
    await screen.findByRole('heading', { name: 'Scan' });
    await waitFor(async () =>
      expect((await requests()).map(({ path }) => path)).toContain('/catalogues'),
    );
    expect(screen.queryByRole('group', { name: 'Mode' })).not.toBeInTheDocument();
    expect(screen.queryByText('Receive')).not.toBeInTheDocument();
  });
});
