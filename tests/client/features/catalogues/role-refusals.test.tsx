import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { CatalogueRole } from '@shared/catalogue-roles.js';
import { CreateProduct } from '@/features/products/components/CreateProduct.js';
import { EditProduct } from '@/features/products/components/EditProduct.js';
import { ImportProducts } from '@/features/products/components/ImportProducts.js';
import { ImportStockByLocation } from '@/features/products/components/ImportStockByLocation.js';
import { renderRoute } from '../../support/render.js';
import { requests, server } from '../../support/server.js';
import { product } from '../products/fixtures.js';
import { answerCatalogues } from './fixtures.js';

/**
 * Screens reached by their URL (a bookmark, a link sent by someone else) whose whole purpose is a
 * right the member's role lacks: they say so before any form, in the server's 403 words.
 */
describe('a screen opened by its URL that needs a right the role lacks', () => {
  const open = (role: CatalogueRole, element: ReactElement, path: string, url: string) => {
    answerCatalogues(role);
    server.use(
      http.get('/api/catalogues/c1/products/p1', () => HttpResponse.json({ product: product() })),
    );
    return renderRoute(element, { path, url });
  };

  it.each([
    [
      'creating a product',
      <CreateProduct key="create" />,
      '/catalogues/:catalogueId/products/create',
      '/catalogues/c1/products/create',
      'Create New Product',
    ],
    [
      'editing a product',
      <EditProduct key="edit" />,
      '/catalogues/:catalogueId/products/:productId/edit',
      '/catalogues/c1/products/p1/edit',
      'Edit Product',
    ],
    [
      'importing products',
      <ImportProducts key="import" />,
      '/catalogues/:catalogueId/products/import',
      '/catalogues/c1/products/import',
      'Import Products',
    ],
  ])(
    '%s: a viewer is told what the role cannot do, before any form',
    async (_, element, path, url, title) => {
      open('viewer', element, path, url);
      expect(
        await screen.findByText(
          'A viewer cannot create, edit or delete products in this catalogue.',
        ),
      ).toBeVisible();
      expect(screen.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      expect(screen.getByRole('link', { name: /^Back to/ })).toHaveAttribute(
        'href',
        expect.stringMatching(/^\/catalogues\/c1(\/products\/p1)?$/),
      );
      expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
      expect(screen.queryByLabelText('CSV file')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Create Product|Save Changes/ })).toBeNull();
    },
  );

  it('a stock member is told so too, in its own words', async () => {
    open(
      'stock',
      <CreateProduct />,
      '/catalogues/:catalogueId/products/create',
      '/catalogues/c1/products/create',
    );
    expect(
      await screen.findByText(
        'A stock member cannot create, edit or delete products in this catalogue.',
      ),
    ).toBeVisible();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
  });

  it('importing stock by location: a viewer cannot adjust stock; a stock member may', async () => {
    const path = '/catalogues/:catalogueId/products/stock-by-location/import';
    const url = '/catalogues/c1/products/stock-by-location/import';
    const viewer = open('viewer', <ImportStockByLocation />, path, url);
    expect(
      await screen.findByText('A viewer cannot adjust stock in this catalogue.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: /Back to Products/ })).toHaveAttribute(
      'href',
      '/catalogues/c1',
    );
    expect(screen.queryByLabelText('CSV file')).not.toBeInTheDocument();
    viewer.unmount();

    open('stock', <ImportStockByLocation />, path, url);
    await waitFor(async () =>
      expect((await requests()).map(({ path }) => path)).toContain('/catalogues'),
    );
    expect(await screen.findByLabelText('CSV file')).toBeInTheDocument();
    expect(screen.queryByText(/cannot/)).not.toBeInTheDocument();
  });

  it('an editor gets the form', async () => {
    open(
      'editor',
      <CreateProduct />,
      '/catalogues/:catalogueId/products/create',
      '/catalogues/c1/products/create',
    );
    await waitFor(async () =>
      expect((await requests()).map(({ path }) => path)).toContain('/catalogues'),
    );
    expect(await screen.findByLabelText('Name')).toBeInTheDocument();
    expect(screen.queryByText(/cannot/)).not.toBeInTheDocument();
  });
});
