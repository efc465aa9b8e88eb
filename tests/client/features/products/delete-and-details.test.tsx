import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DeleteProductButton } from '@/features/products/components/DeleteProductButton.js';
import { ProductDetails } from '@/features/products/components/ProductDetails.js';
import { api, httpError, sent } from '../../support/api.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { product } from './fixtures.js';

const fire = vi.hoisted(() => vi.fn());
vi.mock('sweetalert2', () => ({ default: { fire } }));

describe('DeleteProductButton', () => {
  beforeEach(() => {
    fire.mockResolvedValue({ isConfirmed: false, isDismissed: true, dismiss: 'cancel' });
  });

  it('asks first, deletes once confirmed, then says so once and refreshes the list', async () => {
    fire.mockResolvedValueOnce({ isConfirmed: true });
    api.handler.mockResolvedValue({ message: 'Your product has been deleted.' });
    const queryClient = testQueryClient();
    queryClient.setQueryData(['products', { q: '', sort: 'newest' }], {
      pages: [],
      pageParams: [],
    });
    const { user } = renderRoute(<DeleteProductButton product={product()} />, { queryClient });
    await user.click(screen.getByRole('button', { name: 'Delete Desk Lamp' }));

    expect(fire).toHaveBeenNthCalledWith(
      1,
      expect.objectContaining({
        title: 'Are you sure?',
        text: 'You will not be able to recover this product!',
        icon: 'warning',
        showCancelButton: true,
        confirmButtonText: 'Yes, delete it!',
      }),
    );
    await waitFor(() => expect(sent()).toEqual([['DELETE', '/products/p1', undefined]]));
    await waitFor(() =>
      expect(fire).toHaveBeenNthCalledWith(
        2,
        expect.objectContaining({ title: 'Deleted!', text: 'Your product has been deleted.' }),
      ),
    );
    // The 'Deleted!' dialog carries the server's message: no toast repeats it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(queryClient.getQueryState(['products', { q: '', sort: 'newest' }])?.isInvalidated).toBe(
      true,
    );
  });

  it('keeps the product when cancelled', async () => {
    const { user } = renderRoute(<DeleteProductButton product={product()} />);
    await user.click(screen.getByRole('button', { name: 'Delete Desk Lamp' }));
    await waitFor(() =>
      expect(fire).toHaveBeenLastCalledWith(
        expect.objectContaining({ title: 'Cancelled', text: 'Your product is safe' }),
      ),
    );
    expect(api.handler).not.toHaveBeenCalled();
  });

  it.each(['esc', 'backdrop', 'close'])('treats a dismissal by %s as a cancel', async (reason) => {
    fire.mockResolvedValueOnce({ isConfirmed: false, isDismissed: true, dismiss: reason });
    const { user } = renderRoute(<DeleteProductButton product={product()} />);
    await user.click(screen.getByRole('button', { name: 'Delete Desk Lamp' }));
    await waitFor(() =>
      expect(fire).toHaveBeenLastCalledWith(
        expect.objectContaining({ title: 'Cancelled', text: 'Your product is safe' }),
      ),
    );
    expect(api.handler).not.toHaveBeenCalled();
  });

  it('shows a refused delete as an error toast, without the Deleted! dialog', async () => {
    fire.mockResolvedValueOnce({ isConfirmed: true });
    api.handler.mockRejectedValue(httpError(404, { message: 'Product not found' }));
    const { user } = renderRoute(<DeleteProductButton product={product()} />);
    await user.click(screen.getByRole('button', { name: 'Delete Desk Lamp' }));
    expect(await screen.findByText('Product not found', {}, { timeout: 3000 })).toBeVisible();
    expect(fire).toHaveBeenCalledTimes(1);
  });
});

describe('ProductDetails', () => {
  const setup = () =>
    renderRoute(<ProductDetails />, {
      path: '/details/product/:productId',
      url: '/details/product/p1',
    });

  it('shows the product read-only', async () => {
    api.handler.mockResolvedValue({ product: product({ price: 249, stock: 3 }) });
    setup();
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 })).toBeVisible();
    expect(screen.getByText(/Product ID/)).toHaveTextContent('Product ID: p1');
    expect(screen.getByText('In Stock: 3')).toBeInTheDocument();
    expect(screen.getAllByText('$249.00')).toHaveLength(2);
    expect(screen.getByText('In Stock')).toBeInTheDocument();
    expect(screen.getByText('3 units')).toBeInTheDocument();
    expect(screen.getByAltText('Desk Lamp')).toHaveAttribute('src', product().image);
    expect(screen.getByRole('link', { name: 'Edit Product' })).toHaveAttribute(
      'href',
      '/edit/product/p1',
    );
    expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/');
  });

  it('shows stock counts with thousands separators', async () => {
    api.handler.mockResolvedValue({ product: product({ stock: 2_000_000_000 }) });
    setup();
    expect(await screen.findByText('In Stock: 2,000,000,000')).toBeInTheDocument();
    expect(screen.getByText('2,000,000,000 units')).toBeInTheDocument();
  });

  it('says Out of Stock at 0', async () => {
    api.handler.mockResolvedValue({ product: product({ stock: 0 }) });
    setup();
    expect(await screen.findAllByText('Out of Stock')).toHaveLength(2);
  });

  it('shows a failure in red, centred, after one retry, with a Retry button', async () => {
    api.handler.mockRejectedValue(httpError(500, { message: 'Something went wrong' }));
    const { user } = setup();
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).toHaveClass('text-center', 'text-red-700');
    expect(api.handler).toHaveBeenCalledTimes(2);
    api.handler.mockResolvedValue({ product: product() });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 })).toBeVisible();
  });

  it("calls an unknown product 'Product not found'", async () => {
    api.handler.mockRejectedValue(httpError(404, { message: 'Product not found' }));
    setup();
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Product not found', level: 1 },
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/');
  });
});
