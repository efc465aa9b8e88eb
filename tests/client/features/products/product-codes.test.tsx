import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { M, T } from '@shared/messages.js';
import { CreateProduct } from '@/features/products/components/CreateProduct.js';
import { EditProduct } from '@/features/products/components/EditProduct.js';
import { PrintLabelsButton } from '@/features/products/components/common/PrintLabelsButton.js';
import { renderRoute } from '../../support/render.js';
import { apiError, requests, sent, server } from '../../support/server.js';
import { product } from './fixtures.js';

describe('codes in the product forms', () => {
  const fillRequired = async (user: ReturnType<typeof renderRoute>['user']) => {
    await user.type(screen.getByLabelText('Name'), 'Lamp');
    await user.type(screen.getByLabelText('Price'), '3');
    await user.type(screen.getByLabelText('Stock'), '1');
    await user.type(screen.getByLabelText('Description'), 'Light');
  };

  // Much typing: slow on a loaded machine.
  it(
    'checks a GTIN’s check digit, sends the codes, and shows a taken code at its field',
    { timeout: 15_000 },
    async () => {
      server.use(http.post('/api/products', () => apiError(409, { message: M.barcodeTaken })));
      const { user } = renderRoute(<CreateProduct />, { path: '/new/product' });
      await fillRequired(user);
      await user.type(screen.getByLabelText(/^SKU/), ' LAMP-1 ');
      await user.type(screen.getByLabelText(/^Barcode/), '0012345678904');
      await user.click(screen.getByRole('button', { name: 'Create Product' }));
      expect(await screen.findByText(T.barcodeCheckDigit(5))).toBeInTheDocument();
      expect(await sent()).toEqual([]);

      await user.clear(screen.getByLabelText(/^Barcode/));
      await user.type(screen.getByLabelText(/^Barcode/), '0012345678905');
      await user.click(screen.getByRole('button', { name: 'Create Product' }));
      await waitFor(() =>
        expect(screen.getByLabelText(/^Barcode/)).toHaveAccessibleDescription(
          expect.stringContaining(M.barcodeTaken),
        ),
      );
      expect(await sent()).toEqual([
        [
          'POST',
          '/products',
          {
            name: 'Lamp',
            price: '3',
            stock: '1',
            description: 'Light',
            cost: '',
            tags: '',
            sku: 'LAMP-1',
            barcode: '0012345678905',
          },
        ],
      ]);
    },
  );

  it('shows a SKU a location has as its code at the SKU field', async () => {
    server.use(http.post('/api/products', () => apiError(409, { message: M.skuIsLocation })));
    const { user } = renderRoute(<CreateProduct />, { path: '/new/product' });
    await fillRequired(user);
    await user.type(screen.getByLabelText(/^SKU/), 'L-38VGDH');
    await user.click(screen.getByRole('button', { name: 'Create Product' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^SKU/)).toHaveAccessibleDescription(
        expect.stringContaining(M.skuIsLocation),
      ),
    );
  });

  it('fills the barcode in from ?barcode= (a scanned code no product has)', async () => {
    renderRoute(<CreateProduct />, { path: '/new/product', url: '/new/product?barcode=96385074' });
    expect(screen.getByLabelText(/^Barcode/)).toHaveValue('96385074');
    expect(screen.getByLabelText(/^SKU/)).toHaveValue('');
  });

  it('shows the codes on edit, sends only a changed one, and an emptied one as empty', async () => {
    server.use(
      http.get('/api/products/p1', () =>
        HttpResponse.json({ product: product({ sku: 'LAMP-1', barcode: '012345678905' }) }),
      ),
      http.patch('/api/products/p1', () =>
        HttpResponse.json({ message: 'Product updated', product: product() }),
      ),
    );
    const { user } = renderRoute(<EditProduct />, {
      path: '/edit/product/:productId',
      url: '/edit/product/p1',
    });
    expect(await screen.findByLabelText(/^SKU/)).toHaveValue('LAMP-1');
    expect(screen.getByLabelText(/^Barcode/)).toHaveValue('012345678905');
    await user.clear(screen.getByLabelText(/^Barcode/));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(async () =>
      expect((await sent()).find(([method]) => method === 'PATCH')?.[2]).toMatchObject({
        barcode: '',
      }),
    );
    const patch = (await sent()).find(([method]) => method === 'PATCH')![2] as object;
    expect(patch).not.toHaveProperty('sku');
  });
});

describe('Print labels', () => {
  it('asks for the layout, copies and used labels, then opens the PDF in a new tab', async () => {
    const tab = { location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    URL.createObjectURL = vi.fn(() => 'blob:labels');
    URL.revokeObjectURL = vi.fn();
    server.use(
      http.post(
        '/api/products/labels.pdf',
        () =>
          new HttpResponse(new Uint8Array([37, 80, 68, 70]), {
            headers: { 'content-type': 'application/pdf' },
          }),
      ),
    );
    const { user } = renderRoute(<PrintLabelsButton ids={['p1', 'p2']} />, { path: '/' });
    await user.click(screen.getByRole('button', { name: 'Print labels' }));
    const dialog = await screen.findByRole('dialog', { name: 'Print labels for 2 products' });
    expect(dialog).toBeVisible();
    await user.selectOptions(screen.getByLabelText('Labels'), 'avery-5160');
    await user.clear(screen.getByLabelText('Copies of each'));
    await user.type(screen.getByLabelText('Copies of each'), '501');
    expect(screen.getByRole('alert')).toHaveTextContent('At most 1,000 labels at once');
    expect(screen.getByRole('button', { name: 'Open PDF' })).toBeDisabled();
    await user.clear(screen.getByLabelText('Copies of each'));
    await user.type(screen.getByLabelText('Copies of each'), '3');
    await user.clear(screen.getByLabelText('Labels already used'));
    await user.type(screen.getByLabelText('Labels already used'), '4');
    await user.click(screen.getByRole('button', { name: 'Open PDF' }));
    await waitFor(() => expect(tab.location.href).toBe('blob:labels'));
    const asked = (await requests()).find(({ path }) => path === '/products/labels.pdf');
    expect(asked?.method).toBe('POST');
    expect(asked?.body).toEqual({ ids: ['p1', 'p2'], layout: 'avery-5160', copies: 3, skip: 4 });
    vi.unstubAllGlobals();
  });
});
