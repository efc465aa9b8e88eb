import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@shared/schemas/products.js';
import { DeleteProductButton } from '@/features/products/components/DeleteProductButton.js';
import { EditProduct } from '@/features/products/components/EditProduct.js';
import { ProductDetails } from '@/features/products/components/ProductDetails.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { apiError, sent, server } from '../../support/server.js';
import { answerMovements } from './catalogue.js';
import { product } from './fixtures.js';

const fire = vi.hoisted(() => vi.fn());
vi.mock('sweetalert2', () => ({ default: { fire } }));

describe('DeleteProductButton', () => {
  beforeEach(() => {
    fire.mockResolvedValue({ isConfirmed: false, isDismissed: true, dismiss: 'cancel' });
  });

  it('asks first, deletes once confirmed, then says so with a toast and refreshes the list', async () => {
    fire.mockResolvedValueOnce({ isConfirmed: true });
    server.use(
      http.delete('/api/products/p1', () =>
        HttpResponse.json({ message: 'Your product has been deleted.' }),
      ),
    );
    const queryClient = testQueryClient();
    queryClient.setQueryData(queryKeys.productList(undefined, { q: '', sort: 'newest' }), {
      pages: [],
      pageParams: [],
    });
    const { user } = renderRoute(<DeleteProductButton product={product()} />, { queryClient });
    await user.click(screen.getByRole('button', { name: 'Delete Desk Lamp' }));

    // Once the dialog's code and stylesheets have loaded.
    await waitFor(() =>
      expect(fire).toHaveBeenNthCalledWith(
        1,
        expect.objectContaining({
          title: 'Are you sure?',
          text: 'You will not be able to recover this product!',
          icon: 'warning',
          showCancelButton: true,
          confirmButtonText: 'Yes, delete it!',
        }),
      ),
    );
    await waitFor(async () =>
      expect(await sent()).toEqual([['DELETE', '/products/p1', undefined]]),
    );
    await waitFor(() =>
      expect(fire).toHaveBeenNthCalledWith(
        2,
        expect.objectContaining({ title: 'Deleted!', text: 'Your product has been deleted.' }),
      ),
    );
    // The server's message is also the success notice (spec: delete flow), once.
    expect(await screen.findByRole('alert')).toHaveTextContent('Your product has been deleted.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(
      queryClient.getQueryState(queryKeys.productList(undefined, { q: '', sort: 'newest' }))
        ?.isInvalidated,
    ).toBe(true);
  });

  // 'cancel' is the Cancel button; the others close the dialog without an answer.
  it.each(['cancel', 'esc', 'backdrop', 'close'])(
    'keeps the product when the dialog is dismissed by %s',
    async (reason) => {
      fire.mockResolvedValueOnce({ isConfirmed: false, isDismissed: true, dismiss: reason });
      const { user } = renderRoute(<DeleteProductButton product={product()} />);
      await user.click(screen.getByRole('button', { name: 'Delete Desk Lamp' }));
      await waitFor(() =>
        expect(fire).toHaveBeenLastCalledWith(
          expect.objectContaining({ title: 'Cancelled', text: 'Your product is safe' }),
        ),
      );
      expect(await sent()).toEqual([]);
    },
  );

  it('shows a refused delete as an error toast, without the Deleted! dialog', async () => {
    fire.mockResolvedValueOnce({ isConfirmed: true });
    server.use(
      http.delete('/api/products/p1', () => apiError(404, { message: 'Product not found' })),
    );
    const { user } = renderRoute(<DeleteProductButton product={product()} />);
    await user.click(screen.getByRole('button', { name: 'Delete Desk Lamp' }));
    expect(await screen.findByText('Product not found', {}, { timeout: 3000 })).toBeVisible();
    expect(fire).toHaveBeenCalledTimes(1);
  });
});

describe('ProductDetails', () => {
  beforeEach(() => answerMovements());
  const setup = () =>
    renderRoute(<ProductDetails />, {
      path: '/details/product/:productId',
      url: '/details/product/p1',
    });
  const answer = (body: { product: Product }) =>
    server.use(http.get('/api/products/p1', () => HttpResponse.json(body)));

  it('shows the product read-only', async () => {
    answer({ product: product({ price: 249, stock: 30 }) });
    setup();
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 })).toBeVisible();
    expect(screen.getByText('Product ID')).toBeInTheDocument();
    expect(screen.getByText('p1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy Product ID' })).toBeInTheDocument();
    expect(screen.getByText('In Stock: 30')).toBeInTheDocument();
    expect(screen.getAllByText('$249.00')).toHaveLength(2);
    expect(screen.getByText('In Stock')).toBeInTheDocument();
    expect(screen.getByText('30 units')).toBeInTheDocument();
    expect(screen.getByAltText('Desk Lamp')).toHaveAttribute('src', product().image);
    expect(screen.getByRole('link', { name: 'Edit Product' })).toHaveAttribute(
      'href',
      '/edit/product/p1',
    );
    expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/');
  });

  it('shows where the stock is, each place linking to its page', async () => {
    const locations = [
      { locationId: 'l1', path: 'Main', quantity: 1_200 },
      { locationId: 'l2', path: 'Warehouse / Bin 4', quantity: 3 },
    ];
    answer({ product: { ...product({ stock: 1_203 }), locations } });
    setup();
    const places = await screen.findByRole('list', { name: 'Where it is' });
    const rows = within(places).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual(['Main1,200', 'Warehouse / Bin 43']);
    expect(within(places).getByRole('link', { name: 'Warehouse / Bin 4' })).toHaveAttribute(
      'href',
      '/locations/l2',
    );
  });

  it('shows stock counts with thousands separators', async () => {
    answer({ product: product({ stock: 2_000_000_000 }) });
    setup();
    expect(await screen.findByText('In Stock: 2,000,000,000')).toBeInTheDocument();
    expect(screen.getByText('2,000,000,000 units')).toBeInTheDocument();
  });

  it('says Out of Stock at 0', async () => {
    answer({ product: product({ stock: 0 }) });
    setup();
    // Once, in the stock's block: its availability.
    expect(await screen.findAllByText('Out of Stock')).toHaveLength(1);
  });

  it('shows a failure after one retry, with a Retry button', async () => {
    server.use(
      http.get('/api/products/p1', () => apiError(500, { message: 'Something went wrong' })),
    );
    const { user } = setup();
    // Red and centred: the browser suite sees it (e2e/product-screens.spec.ts).
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('Something went wrong');
    expect((await sent()).filter(([, path]) => path === '/products/p1')).toHaveLength(2);
    answer({ product: product() });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 })).toBeVisible();
  });
});

describe("an unknown product (or another user's: the API says 404 for both)", () => {
  it.each([
    ['details', <ProductDetails />, '/details/product/:productId', '/details/product/p1'],
    ['edit', <EditProduct />, '/edit/product/:productId', '/edit/product/p1'],
  ])(
    "is 'Product not found' on the %s screen, with the way back to the list",
    async (_, screenElement, path, url) => {
      server.use(
        http.get('/api/products/p1', () => apiError(404, { message: 'Product not found' })),
        http.get('/api/products/p1/movements', () =>
          apiError(404, { message: 'Product not found' }),
        ),
      );
      renderRoute(screenElement, { path, url });
      expect(
        await screen.findByRole(
          'heading',
          { name: 'Product not found', level: 1 },
          { timeout: 5000 },
        ),
      ).toBeVisible();
      expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/');
      // Nothing to go back to: no 'Back to Details'.
      expect(screen.queryByRole('link', { name: /Back to Details/ })).not.toBeInTheDocument();
    },
  );
});
