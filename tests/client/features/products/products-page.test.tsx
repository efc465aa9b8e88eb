import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ProductListItem } from '@shared/schemas/products.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { renderRoute } from '../../support/render.js';
import { apiError, requests, server } from '../../support/server.js';
import { answerSummary } from './catalogue.js';
import { listed } from './fixtures.js';

/** GET /api/products answered from its query (?q, sort, limit, cursor). */
const answerList = (
  page: (query: URLSearchParams) => { products: ProductListItem[]; nextCursor: string | null },
) =>
  server.use(
    http.get('/api/products', ({ request }) =>
      HttpResponse.json(page(new URL(request.url).searchParams)),
    ),
  );
/** The list requests the page sent (not its summary's). */
const listRequests = async () => (await requests()).filter(({ path }) => path === '/products');
/** The query of every list request the page sent. */
const params = async () => (await listRequests()).map(({ query }) => query);
const setup = (url = '/') => renderRoute(<ProductsPage />, { path: '/', url });

describe('ProductsPage', () => {
  beforeEach(() => answerSummary());

  it('shows the title, a spinner, then the cards', async () => {
    answerList(() => ({
      products: [listed({ id: 'a', name: 'Lamp' }), listed({ id: 'b', name: 'Chair' })],
      nextCursor: null,
    }));
    setup();
    expect(screen.getByRole('heading', { name: 'Products', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('A list of all the products in your inventory.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading products...');
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect((await params())[0]).toEqual({ sort: 'newest', limit: '60' });
  });

  it.each([
    [1, 1, null, '1 product'],
    [2, 2, null, '2 products'],
    // More pages to load: the summary's count is exact all the same.
    [2, 66, 'next', '66 products'],
  ])('counts %i product(s) of %i (next page: %s) as %s', async (count, total, nextCursor, text) => {
    answerSummary({ count: total, units: 0, value: 0 });
    answerList(() => ({
      products: Array.from({ length: count }, (_, i) => listed({ id: `p${i}`, name: `P${i}` })),
      nextCursor,
    }));
    setup();
    await screen.findByRole('list');
    expect(screen.getByText(text, { exact: true })).toHaveAttribute('aria-live', 'polite');
  });

  it('counts the one result of a search in the singular', async () => {
    answerSummary({ count: 1, units: 0, value: 0 });
    answerList(() => ({ products: [listed({})], nextCursor: null }));
    setup('/?q=lamp');
    expect(await screen.findByText('1 result for "lamp"')).toBeInTheDocument();
  });

  it("shows 'No products' with the 'Add new product' link for an empty catalogue", async () => {
    answerList(() => ({ products: [], nextCursor: null }));
    setup();
    expect(await screen.findByText('No products')).toBeInTheDocument();
    expect(screen.getByText('Get started by creating a new product.')).toBeInTheDocument();
    // Nothing to search or sort yet.
    expect(screen.queryByLabelText('Search')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Sort by')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Add new product/ })).toHaveAttribute(
      'href',
      '/add/product',
    );
  });

  it('shows a different state when a search finds nothing, and can clear it', async () => {
    answerList((query) => ({ products: query.get('q') ? [] : [listed({})], nextCursor: null }));
    const { user } = setup('/?q=zebra');
    expect(await screen.findByText('No products found')).toBeInTheDocument();
    expect(screen.getByText('No products match "zebra".')).toBeInTheDocument();
    expect(screen.queryByText('No products')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Search')).toHaveValue('zebra');
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByRole('heading', { name: 'Desk Lamp' })).toBeInTheDocument();
    expect(screen.getByLabelText('Search')).toHaveValue('');
  });

  it('searches and sorts from the URL state', async () => {
    answerList(() => ({ products: [listed({})], nextCursor: null }));
    const { user } = setup('/?sort=price-desc');
    await screen.findByRole('list');
    expect(screen.getByLabelText('Sort by')).toHaveValue('price-desc');
    expect((await params())[0]).toMatchObject({ sort: 'price-desc' });

    await user.type(screen.getByLabelText('Search'), 'lamp');
    await waitFor(async () =>
      expect((await params()).at(-1)).toMatchObject({ q: 'lamp', sort: 'price-desc' }),
    );
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Stock: low to high');
    await waitFor(async () =>
      expect((await params()).at(-1)).toMatchObject({ q: 'lamp', sort: 'stock-asc' }),
    );
  });

  it('loads the next page on nextCursor', async () => {
    answerList((query) =>
      query.get('cursor') === 'c2'
        ? { products: [listed({ id: 'b', name: 'Chair' })], nextCursor: null }
        : { products: [listed({ id: 'a', name: 'Lamp' })], nextCursor: 'c2' },
    );
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { name: 'Chair' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Lamp' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect((await params()).at(-1)).toMatchObject({ cursor: 'c2' });
  });

  it("shows a load failure inline with an 'Add new product' link", async () => {
    server.use(
      http.get('/api/products', () => apiError(500, { message: 'Something went wrong.' })),
    );
    setup();
    // The list is retried once before the error shows.
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('Something went wrong.');
    expect(within(alert).getByRole('link', { name: 'Add new product' })).toHaveAttribute(
      'href',
      '/add/product',
    );
    expect(await listRequests()).toHaveLength(2);
  });
});
