import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { api, httpError } from '../../support/api.js';
import { renderRoute } from '../../support/render.js';
import { product } from './fixtures.js';

const listed = (overrides: Parameters<typeof product>[0]) => {
  const { active: _a, createdAt: _c, updatedAt: _u, ...item } = product(overrides);
  return item;
};
const params = () =>
  api.handler.mock.calls.map(([config]) => config.params as Record<string, unknown>);
const setup = (url = '/') => renderRoute(<ProductsPage />, { path: '/', url });

describe('ProductsPage', () => {
  it('shows the title, a spinner, then the cards', async () => {
    api.handler.mockResolvedValue({
      products: [listed({ id: 'a', name: 'Lamp' }), listed({ id: 'b', name: 'Chair' })],
      nextCursor: null,
    });
    setup();
    expect(screen.getByRole('heading', { name: 'Products', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('A list of all the products in your inventory.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading products...');
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(params()[0]).toMatchObject({ sort: 'newest', limit: 60 });
  });

  it.each([
    [1, null, '1 product'],
    [2, null, '2 products'],
    [2, 'next', '2+ products'],
  ])('counts %i product(s) (next page: %s) as %s', async (count, nextCursor, text) => {
    api.handler.mockResolvedValue({
      products: Array.from({ length: count }, (_, i) => listed({ id: `p${i}`, name: `P${i}` })),
      nextCursor,
    });
    setup();
    await screen.findByRole('list');
    expect(screen.getByText(text, { exact: true })).toHaveAttribute('aria-live', 'polite');
  });

  it('counts the one result of a search in the singular', async () => {
    api.handler.mockResolvedValue({ products: [listed({})], nextCursor: null });
    setup('/?q=lamp');
    expect(await screen.findByText('1 result for "lamp"')).toBeInTheDocument();
  });

  it("shows 'No products' with the 'Add new product' link for an empty catalogue", async () => {
    api.handler.mockResolvedValue({ products: [], nextCursor: null });
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
    api.handler.mockImplementation((config) => ({
      products: (config.params as { q?: string }).q ? [] : [listed({})],
      nextCursor: null,
    }));
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
    api.handler.mockResolvedValue({ products: [listed({})], nextCursor: null });
    const { user } = setup('/?sort=price-desc');
    await screen.findByRole('list');
    expect(screen.getByLabelText('Sort by')).toHaveValue('price-desc');
    expect(params()[0]).toMatchObject({ sort: 'price-desc' });

    await user.type(screen.getByLabelText('Search'), 'lamp');
    await waitFor(() => expect(params().at(-1)).toMatchObject({ q: 'lamp', sort: 'price-desc' }));
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Stock: low to high');
    await waitFor(() => expect(params().at(-1)).toMatchObject({ q: 'lamp', sort: 'stock-asc' }));
  });

  it('loads the next page on nextCursor', async () => {
    api.handler.mockImplementation((config) =>
      (config.params as { cursor?: string }).cursor === 'c2'
        ? { products: [listed({ id: 'b', name: 'Chair' })], nextCursor: null }
        : { products: [listed({ id: 'a', name: 'Lamp' })], nextCursor: 'c2' },
    );
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { name: 'Chair' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Lamp' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(params().at(-1)).toMatchObject({ cursor: 'c2' });
  });

  it("shows a load failure inline with an 'Add new product' link", async () => {
    api.handler.mockRejectedValue(httpError(500, { message: 'Something went wrong.' }));
    setup();
    // The list is retried once before the error shows.
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('Something went wrong.');
    expect(within(alert).getByRole('link', { name: 'Add new product' })).toHaveAttribute(
      'href',
      '/add/product',
    );
    expect(api.handler).toHaveBeenCalledTimes(2);
  });
});
