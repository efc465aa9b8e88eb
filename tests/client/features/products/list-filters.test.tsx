import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { renderRoute } from '../../support/render.js';
import { requests, server } from '../../support/server.js';
import { answerSummary } from './catalogue.js';
import { listed } from './fixtures.js';

const CATALOGUE = [
  listed({ id: 'a', name: 'Lamp', price: 10, stock: 25 }),
  listed({ id: 'b', name: 'Chair', price: 40.5, stock: 4 }),
  listed({ id: 'c', name: 'Tray', price: 3.99, stock: 0 }),
];

// The catalogue's reorder point is the default, 10.
const selects = (stock: string | null) => (product: (typeof CATALOGUE)[number]) =>
  stock === 'low'
    ? product.stock >= 1 && product.stock <= 10
    : stock === 'reorder'
      ? product.stock <= 10
      : stock === 'out'
        ? product.stock === 0
        : true;

beforeEach(() => {
  server.use(
    http.get('/api/products', ({ request }) => {
      const stock = new URL(request.url).searchParams.get('stock');
      return HttpResponse.json({ products: CATALOGUE.filter(selects(stock)), nextCursor: null });
    }),
  );
  answerSummary((query) => {
    const shown = CATALOGUE.filter(selects(query.get('stock')));
    return {
      count: shown.length,
      toReorder: shown.filter(selects('reorder')).length,
      units: shown.reduce((sum, product) => sum + product.stock, 0),
      value: shown.reduce((sum, product) => sum + product.price * product.stock, 0),
    };
  });
});

/** The list, with the URL it keeps its state in. */
function ListWithUrl() {
  const { search } = useLocation();
  return (
    <>
      <ProductsPage />
      <output data-testid="url">{search}</output>
    </>
  );
}

const queriesOf = async (path: string) =>
  (await requests()).filter((request) => request.path === path).map(({ query }) => query);

const summary = () => {
  const figures = screen.getAllByRole('definition').map((figure) => figure.textContent);
  const names = screen.getAllByRole('term').map((term) => term.textContent);
  return Object.fromEntries(names.map((name, i) => [name, figures[i]]));
};

describe('stock filters and the summary', () => {
  it('shows the count, the units and the stock value of what the list shows', async () => {
    renderRoute(<ListWithUrl />);
    await screen.findByRole('list', {}, { timeout: 5000 });
    expect(summary()).toEqual({
      'Total units': '29',
      'Stock value at price': '$412.00',
    });
  });

  it('filters products to reorder and out of stock, kept in the URL beside the search and sort', async () => {
    const { user } = renderRoute(<ListWithUrl />, { url: '/?q=a&sort=name' });
    await screen.findByRole('list', {}, { timeout: 5000 });
    const filters = within(screen.getByRole('group', { name: 'Stock filter' }));
    expect(filters.getByRole('button', { name: /^All\b/ })).toHaveAttribute('aria-pressed', 'true');
    // One notion of low: the reorder point, which the badges follow too; no second range.
    expect(filters.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'All 3',
      'To reorder 2',
      'Out of Stock 1',
    ]);

    await user.click(filters.getByRole('button', { name: /^To reorder/ }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
    expect(screen.getByRole('heading', { name: 'Chair' })).toBeVisible();
    expect(filters.getByRole('button', { name: /^To reorder/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await waitFor(() =>
      expect(summary()).toEqual({
        'Total units': '4',
        'Stock value at price': '$162.00',
      }),
    );
    expect((await queriesOf('/products')).at(-1)).toMatchObject({
      q: 'a',
      sort: 'name',
      stock: 'reorder',
    });
    expect(screen.getByTestId('url')).toHaveTextContent(/^\?q=a&sort=name&stock=reorder$/);
    expect((await queriesOf('/products/summary')).at(-1)).toEqual({ q: 'a', stock: 'reorder' });

    await user.click(filters.getByRole('button', { name: /^Out of Stock/ }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Tray' })).toBeVisible());
    expect(screen.getAllByRole('listitem')).toHaveLength(1);

    await user.click(filters.getByRole('button', { name: /^All\b/ }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3));
    expect(screen.getByTestId('url')).toHaveTextContent(/^\?q=a&sort=name$/);
  });

  it('starts from the filter in the URL', async () => {
    renderRoute(<ListWithUrl />, { url: '/?stock=out' });
    expect(await screen.findByRole('heading', { name: 'Tray' })).toBeVisible();
    expect(screen.getByRole('button', { name: /^Out of Stock/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(await queriesOf('/products')).toEqual([{ sort: 'newest', stock: 'out', limit: '60' }]);
  });

  it('says when a filter selects nothing, and can show every product again', async () => {
    server.use(
      http.get('/api/products', ({ request }) =>
        HttpResponse.json({
          products: new URL(request.url).searchParams.get('stock') ? [] : CATALOGUE,
          nextCursor: null,
        }),
      ),
    );
    const { user } = renderRoute(<ListWithUrl />, { url: '/?stock=low' });
    expect(await screen.findByText('No products are low on stock.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Show all products' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3));
  });
});

describe('the table view', () => {
  let wide = true;
  beforeEach(() => {
    wide = true;
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(min-width: 1024px)' && wide,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('switches to a table on a wide screen, kept in the URL', async () => {
    const { user } = renderRoute(<ListWithUrl />);
    await screen.findByRole('list', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Table' }));
    const table = await screen.findByRole('table');
    expect(screen.getByTestId('url')).toHaveTextContent(/^\?view=table$/);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    const chair = within(rows[2]!);
    expect(chair.getByRole('rowheader', { name: 'Chair' })).toBeVisible();
    expect(chair.getByText('$40.50')).toBeVisible();
    expect(chair.getByText('4 units')).toBeVisible();
    expect(chair.getByText('· to reorder')).toBeVisible();
    expect(chair.getByRole('button', { name: 'Increase stock of Chair' })).toBeVisible();
    expect(chair.getByRole('checkbox', { name: 'Select Chair' })).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Cards' }));
    expect(await screen.findByRole('list')).toBeVisible();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('sorts by a column: upwards, then downwards', async () => {
    const { user } = renderRoute(<ListWithUrl />, { url: '/?view=table' });
    const table = await screen.findByRole('table');
    const price = within(table).getByRole('columnheader', { name: /Price/ });
    expect(price).toHaveAttribute('aria-sort', 'none');
    await user.click(within(price).getByRole('button'));
    await waitFor(() => expect(price).toHaveAttribute('aria-sort', 'ascending'));
    await waitFor(async () =>
      expect((await queriesOf('/products')).at(-1)).toMatchObject({ sort: 'price-asc' }),
    );
    expect(screen.getByLabelText('Sort by')).toHaveValue('price-asc');
    await user.click(within(price).getByRole('button'));
    await waitFor(() => expect(price).toHaveAttribute('aria-sort', 'descending'));
    await waitFor(async () =>
      expect((await queriesOf('/products')).at(-1)).toMatchObject({ sort: 'price-desc' }),
    );
    expect(screen.getByTestId('url')).toHaveTextContent(/^\?view=table&sort=price-desc$/);
  });

  it('is never shown below 1024 px, whatever the URL says', async () => {
    wide = false;
    renderRoute(<ListWithUrl />, { url: '/?view=table' });
    expect(await screen.findByRole('list')).toBeVisible();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'View' })).not.toBeInTheDocument();
  });
});

describe('tags on the list', () => {
  beforeEach(() => {
    server.use(
      http.get('/api/products', ({ request }) => {
        const tag = new URL(request.url).searchParams.get('tag');
        const products = [
          listed({ id: 'a', name: 'Rake', tags: ['Garden', 'Tools'] }),
          listed({ id: 'b', name: 'Pan', tags: ['Kitchen'] }),
        ].filter((product) => !tag || product.tags.includes(tag));
        return HttpResponse.json({ products, nextCursor: null });
      }),
    );
    answerSummary((query) =>
      query.get('tag')
        ? { count: 1, units: 24, value: 957.6, valueAtCost: 120 }
        : { count: 2, units: 48, value: 1915.2 },
    );
  });

  it('shows each product’s tags as links to the list of that tag; the value at price', async () => {
    renderRoute(<ListWithUrl />);
    const rake = await screen.findByRole('heading', { name: 'Rake' });
    const card = within(rake.closest('li')!);
    expect(card.getByRole('link', { name: 'Garden' })).toHaveAttribute('href', '/?tag=Garden');
    expect(summary()['Stock value at price']).toBe('$1,915.20');
  });

  it('filters by the tag in the URL, says so, and values the stock at cost', async () => {
    const { user } = renderRoute(<ListWithUrl />, { url: '/?tag=Garden' });
    expect(await screen.findByRole('heading', { name: 'Rake' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Pan' })).toBeNull();
    expect(await queriesOf('/products')).toContainEqual(expect.objectContaining({ tag: 'Garden' }));
    await waitFor(() => expect(summary()['Stock value at cost']).toBe('$120.00'));
    await user.click(screen.getByRole('button', { name: 'Show every tag' }));
    expect(await screen.findByRole('heading', { name: 'Pan' })).toBeVisible();
    expect(screen.getByTestId('url')).toHaveTextContent(/^$/);
  });
});
