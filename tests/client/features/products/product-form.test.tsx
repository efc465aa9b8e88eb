import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CreateProduct } from '@/features/products/components/CreateProduct.js';
import { EditProduct } from '@/features/products/components/EditProduct.js';
import { renderRoute } from '../../support/render.js';
import { apiError, deferred, requests, sent, server } from '../../support/server.js';
import { product } from './fixtures.js';

beforeAll(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});

const png = (name = 'lamp.png', size = 1024) =>
  new File([new Uint8Array(size)], name, { type: 'image/png' });

describe('CreateProduct', () => {
  const setup = () =>
    renderRoute(<CreateProduct />, { path: '/new/product', userOptions: { applyAccept: false } });

  it('shows the required messages under each field', async () => {
    const { user } = setup();
    expect(screen.getByRole('heading', { name: 'Create New Product' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Products/ })).toHaveAttribute('href', '/');
    await user.click(screen.getByRole('button', { name: 'Create Product' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Price')).toHaveAccessibleDescription(
      expect.stringContaining('Price is required'),
    );
    expect(screen.getByLabelText('Stock')).toHaveAccessibleDescription(
      expect.stringContaining('Stock is required'),
    );
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    expect(await sent()).toEqual([]);
  });

  it('checks the price and stock minimums, and takes cents', async () => {
    const { user } = setup();
    expect(screen.getByLabelText('Price')).toHaveAttribute('step', '0.01');
    expect(screen.getByLabelText('Stock')).toHaveAttribute('min', '1');
    await user.type(screen.getByLabelText('Price'), '0');
    await user.type(screen.getByLabelText('Stock'), '0');
    await user.click(screen.getByRole('button', { name: 'Create Product' }));
    expect(await screen.findByText('Price must be greater than 0')).toBeInTheDocument();
    expect(screen.getByText('Stock must be greater than 0')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Price'));
    await user.type(screen.getByLabelText('Price'), '19.99');
    await waitFor(() =>
      expect(screen.queryByText('Price must be greater than 0')).not.toBeInTheDocument(),
    );
  });

  it('says why a file is refused', async () => {
    const { user } = setup();
    const input = screen.getByLabelText('Product Image');
    await user.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only image files are allowed');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.upload(input, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The file is not a supported image (JPEG, PNG, WebP, AVIF or GIF)',
    );
    await user.upload(input, png('huge.png', 5 * 1024 * 1024 + 1));
    expect(screen.getByRole('alert')).toHaveTextContent('The image must be at most 5 MB');
  });

  it('refuses a file the browser cannot decode, whatever its name says', async () => {
    // jsdom decodes nothing: the browser's answer is stubbed (the real one: e2e/product-screens).
    const decode = vi.fn((file: File) =>
      file.name === 'notes.png'
        ? Promise.reject(new DOMException('The source image could not be decoded.'))
        : Promise.resolve({ close: () => undefined }),
    );
    vi.stubGlobal('createImageBitmap', decode);
    try {
      const { user } = setup();
      const input = screen.getByLabelText('Product Image');
      await user.upload(input, png('notes.png'));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'The file cannot be read as an image',
      );
      expect(screen.queryByText('notes.png')).not.toBeInTheDocument();
      await user.upload(input, png('real.png'));
      expect(await screen.findByText('real.png')).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(decode).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('previews a dropped image, and clears it', async () => {
    const { user } = setup();
    // Dropped where the picker says so: 'or drag and drop it here'.
    fireEvent.drop(screen.getByText(/drag and drop it here/), {
      dataTransfer: { files: [png('drop.png')] },
    });
    expect(await screen.findByText('drop.png')).toBeInTheDocument();
    expect(screen.getByAltText('Preview of the chosen image')).toHaveAttribute(
      'src',
      'blob:preview',
    );
    await user.click(screen.getByRole('button', { name: 'Clear the chosen image' }));
    expect(screen.queryByText('drop.png')).not.toBeInTheDocument();
  });

  it("sends the multipart form with upload progress, reads 'Creating...', then goes to /", async () => {
    const pending = deferred();
    server.use(http.post('/api/products', () => pending.promise));
    const { user } = setup();
    await user.type(screen.getByLabelText('Name'), 'Desk Lamp');
    await user.type(screen.getByLabelText('Price'), '39.90');
    await user.type(screen.getByLabelText('Stock'), '24');
    await user.type(screen.getByLabelText('Description'), 'A lamp for the desk.');
    await user.upload(screen.getByLabelText('Product Image'), png());
    await user.click(screen.getByRole('button', { name: 'Create Product' }));

    expect(await screen.findByRole('button', { name: 'Creating...' })).toBeDisabled();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        [
          'POST',
          '/products',
          {
            name: 'Desk Lamp',
            price: '39.90',
            stock: '24',
            description: 'A lamp for the desk.',
            cost: '',
            tags: '',
            image: { file: 'image/png' },
          },
        ],
      ]),
    );
    // Up from the start of the upload (the events that move it: product-multipart.test.ts).
    expect(await screen.findByRole('progressbar', { name: 'Uploading the image' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    pending.resolve(HttpResponse.json({ message: 'Product created', product: product() }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(
      screen.queryByRole('progressbar', { name: 'Uploading the image' }),
    ).not.toBeInTheDocument();
    expect(await screen.findByText('Product created', {}, { timeout: 3000 })).toBeVisible();
  });

  it('leaves the image out when none was chosen, and toasts a server error', async () => {
    server.use(
      http.post('/api/products', () =>
        apiError(400, { message: 'Price can have at most 2 decimals', errors: [] }),
      ),
    );
    const { user } = setup();
    await user.type(screen.getByLabelText('Name'), 'Lamp');
    await user.type(screen.getByLabelText('Price'), '3');
    await user.type(screen.getByLabelText('Stock'), '1');
    await user.type(screen.getByLabelText('Description'), 'Light');
    await user.click(screen.getByRole('button', { name: 'Create Product' }));
    expect(
      await screen.findByText('Price can have at most 2 decimals', {}, { timeout: 3000 }),
    ).toBeVisible();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        [
          'POST',
          '/products',
          { name: 'Lamp', price: '3', stock: '1', description: 'Light', cost: '', tags: '' },
        ],
      ]),
    );
    expect(screen.getByRole('button', { name: 'Create Product' })).toBeEnabled();
  });

  it('takes a cost and tags as chips, kept once whatever their case', async () => {
    server.use(
      http.post('/api/products', () =>
        HttpResponse.json({ message: 'Product created', product: product() }, { status: 201 }),
      ),
    );
    const { user } = setup();
    await user.type(screen.getByLabelText('Name'), 'Rake');
    await user.type(screen.getByLabelText('Price'), '12');
    await user.type(screen.getByLabelText('Stock'), '3');
    await user.type(screen.getByLabelText('Description'), 'For leaves');
    await user.type(screen.getByLabelText('Cost (optional)'), '4.50');
    const tags = screen.getByLabelText('Tags (optional)', { selector: 'input' });
    await user.type(tags, 'Garden{Enter} tools ,garden{Enter}Sale{Enter}');
    const chips = within(screen.getByRole('list', { name: 'Tags (optional)' }));
    expect(chips.getAllByRole('listitem').map((chip) => chip.textContent)).toEqual([
      'Garden×',
      'tools×',
      'Sale×',
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove tag Sale' }));
    await user.click(screen.getByRole('button', { name: 'Create Product' }));
    await waitFor(async () =>
      expect(await sent()).toEqual([
        [
          'POST',
          '/products',
          {
            name: 'Rake',
            price: '12',
            stock: '3',
            description: 'For leaves',
            cost: '4.50',
            tags: ['Garden', 'tools'],
          },
        ],
      ]),
    );
  });
});

describe('EditProduct', () => {
  const setup = () =>
    renderRoute(<EditProduct />, {
      path: '/edit/product/:productId',
      url: '/edit/product/p1',
    });

  it('loads the product into the form with its current image', async () => {
    server.use(
      http.get('/api/products/p1', () =>
        HttpResponse.json({ product: product({ price: 39.9, stock: 24 }) }),
      ),
    );
    setup();
    expect(screen.getByRole('heading', { name: 'Edit Product' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Details/ })).toHaveAttribute(
      'href',
      '/details/product/p1',
    );
    expect(await screen.findByLabelText('Name')).toHaveValue('Desk Lamp');
    expect(screen.getByLabelText('Price')).toHaveDisplayValue('39.90');
    expect(screen.getByLabelText('Stock')).toHaveValue(24);
    expect(screen.getByText('Current image')).toBeInTheDocument();
    expect(screen.getByAltText('Desk Lamp')).toHaveAttribute('src', product().image);
  });

  it("keeps every field optional, reads 'Saving...', refreshes and goes to /", async () => {
    const pending = deferred();
    server.use(
      http.get('/api/products/p1', () => HttpResponse.json({ product: product() })),
      http.patch('/api/products/p1', () => pending.promise),
    );
    const { user, queryClient } = setup();
    await user.clear(await screen.findByLabelText('Description'));
    await user.clear(screen.getByLabelText('Stock'));
    await user.type(screen.getByLabelText('Stock'), '-1');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    // 0 is allowed here: -1 is refused as negative, not as 'greater than 0'.
    expect(await screen.findByText('Stock cannot be negative')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Stock'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    // The price as the form shows money: two decimals.
    await waitFor(async () =>
      expect(await sent()).toContainEqual([
        'PATCH',
        '/products/p1',
        { name: 'Desk Lamp', price: '39.90', cost: '', tags: '' },
      ]),
    );
    pending.resolve(HttpResponse.json({ message: 'Product updated', product: product() }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    // The edited product was fetched again (it is on screen, so invalidating refetches it).
    const reads = (await requests()).filter(
      ({ method, path }) => method === 'GET' && path === '/products/p1',
    );
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(queryClient.getQueryState(['products'])).toBeUndefined();
  });

  it('saves a stock of 0 so that the product can be marked Out of Stock', async () => {
    server.use(
      http.get('/api/products/p1', () => HttpResponse.json({ product: product({ stock: 24 }) })),
      http.patch('/api/products/p1', () =>
        HttpResponse.json({ message: 'Product updated', product: product({ stock: 0 }) }),
      ),
    );
    const { user } = setup();
    const stock = await screen.findByLabelText('Stock');
    expect(stock).toHaveAttribute('min', '0');
    await user.clear(stock);
    await user.type(stock, '0');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(screen.queryByText('Stock must be greater than 0')).not.toBeInTheDocument();
    const patch = (await requests()).find(({ method }) => method === 'PATCH');
    expect(patch?.body).toMatchObject({ stock: '0' });
  });

  it('shows a load failure with Retry', async () => {
    server.use(
      http.get('/api/products/p1', () => apiError(500, { message: 'Something went wrong' })),
    );
    const { user } = setup();
    // Red and centred: the browser suite sees it (e2e/product-screens.spec.ts).
    const alert = await screen.findByRole('alert', {}, { timeout: 3000 });
    expect(alert).toHaveTextContent('Something went wrong');
    server.use(http.get('/api/products/p1', () => HttpResponse.json({ product: product() })));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Name')).toHaveValue('Desk Lamp');
  });
});
