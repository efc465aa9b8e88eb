import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { PO, type PurchaseOrder } from '@shared/schemas/purchasing/purchase-orders.js';
import type { Supplier } from '@shared/schemas/purchasing/suppliers.js';
import { PurchaseOrderScreen } from '@/features/purchasing/components/PurchaseOrderScreen.js';
import { PurchaseOrdersScreen } from '@/features/purchasing/components/PurchaseOrdersScreen.js';
import { SuppliersScreen } from '@/features/purchasing/components/SuppliersScreen.js';
import { ProductSuppliers } from '@/features/purchasing/components/ProductSuppliers.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { product } from '../products/fixtures.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { apiError, server } from '../../support/server.js';
import { answerCatalogues, USER } from '../catalogues/fixtures.js';

const ACME: Supplier = {
  id: 's1',
  name: 'Acme Supply',
  email: 'orders@acme.test',
  phone: null,
  notes: null,
};

const order = (overrides: Partial<PurchaseOrder> = {}): PurchaseOrder => ({
  id: 'po1',
  number: 'PO-0001',
  supplierId: 's1',
  supplierName: 'Acme Supply',
  status: 'ordered',
  expectedAt: '2026-12-10T00:00:00.000Z',
  notes: null,
  sentAt: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  totalQuantity: 12,
  totalCost: 30,
  lines: [
    {
      productId: 'p1',
      name: 'Blue mug',
      sku: 'MUG-1',
      supplierSku: 'AC-77',
      quantity: 12,
      unitCost: 2.5,
      received: 4,
    },
  ],
  ...overrides,
});

const LOCATIONS = [
  {
    id: 'main',
    name: 'Main',
    parentId: null,
    path: 'Main',
    code: 'L-MAIN',
    isDefault: true,
    units: 0,
  },
];

function show(element: React.ReactElement, url: string, path: string) {
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.user, USER);
  return renderRoute(element, { path, url, queryClient });
}

describe('the suppliers screen', () => {
  it('lists the suppliers and adds one, as the owner of the personal catalogue', async () => {
    let sent: unknown;
    server.use(
      http.get('/api/suppliers', () => HttpResponse.json({ suppliers: [ACME] })),
      http.post('/api/suppliers', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          { message: 'Supplier created', supplier: { ...ACME, id: 's2', name: 'Bolt & Co' } },
          { status: 201 },
        );
      }),
    );
    show(<SuppliersScreen />, '/suppliers', '/suppliers');
    const list = await screen.findByRole('list', { name: 'Suppliers' });
    await within(list).findByText('Acme Supply');
    expect(within(list).getByText('orders@acme.test')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Bolt & Co');
    await user.type(screen.getByLabelText('E-mail'), 'Sales@Bolt.test');
    await user.click(screen.getByRole('button', { name: 'Add supplier' }));
    await waitFor(() =>
      expect(sent).toEqual({
        name: 'Bolt & Co',
        email: 'sales@bolt.test',
        phone: null,
        notes: null,
      }),
    );
  });

  it('says what is wrong before sending a supplier without a name', async () => {
    server.use(http.get('/api/suppliers', () => HttpResponse.json({ suppliers: [] })));
    show(<SuppliersScreen />, '/suppliers', '/suppliers');
    await screen.findByText('No suppliers yet.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add supplier' }));
    expect(await screen.findByText('Supplier name is required')).toBeInTheDocument();
  });

  it('offers a stock member of a shared catalogue no way to change suppliers', async () => {
    answerCatalogues('stock');
    server.use(
      http.get('/api/catalogues/c1/suppliers', () => HttpResponse.json({ suppliers: [ACME] })),
    );
    show(<SuppliersScreen />, '/catalogues/c1/suppliers', '/catalogues/:catalogueId/suppliers');
    await screen.findByText('Acme Supply');
    expect(screen.queryByRole('button', { name: 'Edit Acme Supply' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Add a supplier' })).not.toBeInTheDocument();
  });
});

describe('the purchase orders screen', () => {
  it('lists orders and makes drafts of what is low, linking each', async () => {
    server.use(
      http.get('/api/purchase-orders', () =>
        HttpResponse.json({ purchaseOrders: [{ ...order(), lineCount: 1 }] }),
      ),
      http.get('/api/suppliers', () => HttpResponse.json({ suppliers: [ACME] })),
      http.post('/api/purchase-orders/from-reorder', () =>
        HttpResponse.json(
          {
            message: '1 draft made',
            purchaseOrders: [order({ id: 'po2', number: 'PO-0002', status: 'draft' })],
          },
          { status: 201 },
        ),
      ),
    );
    show(<PurchaseOrdersScreen />, '/purchase-orders', '/purchase-orders');
    const table = await screen.findByRole('table', { name: 'Purchase orders' });
    const row = (await within(table).findByRole('link', { name: 'PO-0001' })).closest('tr')!;
    expect(row.textContent).toBe('PO-0001Acme SupplyOrderedDec 10, 2026$30.00');
    await userEvent.setup().click(screen.getByRole('button', { name: "Order what's low" }));
    const drafts = await screen.findByRole('list', { name: 'Drafts made' });
    expect(within(drafts).getByRole('link', { name: 'PO-0002' })).toHaveAttribute(
      'href',
      '/purchase-orders/po2',
    );
  });
});

describe("a purchase order's page", () => {
  it("edits a draft's lines and sends them in one PATCH", async () => {
    let sent: unknown;
    const draft = order({ status: 'draft' });
    server.use(
      http.get('/api/purchase-orders/po1', () => HttpResponse.json({ purchaseOrder: draft })),
      http.patch('/api/purchase-orders/po1', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Purchase order updated', purchaseOrder: draft });
      }),
    );
    show(<PurchaseOrderScreen />, '/purchase-orders/po1', '/purchase-orders/:poId');
    const user = userEvent.setup();
    const quantity = await screen.findByLabelText('Quantity of Blue mug');
    expect(screen.getByRole('button', { name: 'Mark as ordered' })).toBeEnabled();
    await user.clear(quantity);
    await user.type(quantity, '20');
    expect(screen.getByRole('button', { name: 'Mark as ordered' })).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Expected'), { target: { value: '2026-12-24' } });
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() =>
      expect(sent).toEqual({
        lines: [{ productId: 'p1', quantity: 20, unitCost: '2.50' }],
        expectedAt: '2026-12-24',
        notes: null,
      }),
    );
    expect(screen.getByRole('button', { name: 'Delete draft' })).toBeInTheDocument();
  });

  it("shows the server's refusal of a line's quantity at that line, not under the form", async () => {
    const draft = order({
      status: 'draft',
      lines: [
        ...order().lines,
        {
          productId: 'p2',
          name: 'Red cup',
          sku: null,
          supplierSku: null,
          quantity: 3,
          unitCost: 1,
          received: 0,
        },
      ],
    });
    server.use(
      http.get('/api/purchase-orders/po1', () => HttpResponse.json({ purchaseOrder: draft })),
      http.patch('/api/purchase-orders/po1', () =>
        apiError(400, {
          message: PO.quantityInvalid,
          errors: [{ path: 'lines.1.quantity', message: PO.quantityInvalid }],
        }),
      ),
    );
    show(<PurchaseOrderScreen />, '/purchase-orders/po1', '/purchase-orders/:poId');
    const user = userEvent.setup();
    const cup = await screen.findByLabelText('Quantity of Red cup');
    await user.clear(cup);
    await user.type(cup, '0');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));

    expect(await screen.findByText(PO.quantityInvalid)).toBeVisible();
    expect(PO.quantityInvalid).toBe('Quantity must be a whole number from 1 to 2,147,483,647');
    expect(screen.getAllByText(PO.quantityInvalid)).toHaveLength(1);
    const lines = within(screen.getByRole('list', { name: 'Lines' })).getAllByRole('listitem');
    expect(within(lines[1]!).getByText(PO.quantityInvalid)).toBeVisible();
    expect(cup).toHaveAccessibleDescription(PO.quantityInvalid);
    expect(cup).toHaveAttribute('aria-invalid', 'true');
    expect(cup).toHaveFocus();
    expect(screen.getByLabelText('Quantity of Blue mug')).not.toHaveAttribute('aria-invalid');

    // Changed, the line's message goes.
    await user.type(cup, '5');
    expect(screen.queryByText(PO.quantityInvalid)).not.toBeInTheDocument();
    expect(cup).not.toHaveAttribute('aria-invalid');
  });

  it("adds a product found by a search to a draft's lines", async () => {
    let searched: URLSearchParams | undefined;
    const draft = order({ status: 'draft' });
    server.use(
      http.get('/api/purchase-orders/po1', () => HttpResponse.json({ purchaseOrder: draft })),
      http.get('/api/products', ({ request }) => {
        searched = new URL(request.url).searchParams;
        return HttpResponse.json({
          products: [product({ id: 'p2', name: 'Red cup', sku: 'CUP-2' })],
          nextCursor: null,
        });
      }),
    );
    show(<PurchaseOrderScreen />, '/purchase-orders/po1', '/purchase-orders/:poId');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Add product'), ' cup {Enter}');
    await user.click(await screen.findByRole('button', { name: 'Add Red cup' }));
    expect(searched?.get('q')).toBe('cup');
    expect(searched?.get('limit')).toBe('8');
    expect(screen.getByLabelText('Quantity of Red cup')).toHaveValue(1);
    expect(screen.queryByRole('list', { name: 'Products found' })).not.toBeInTheDocument();
  });

  it('receives typed quantities into a location and says more than ordered', async () => {
    let sent: unknown;
    let key: string | null = null;
    server.use(
      http.get('/api/purchase-orders/po1', () => HttpResponse.json({ purchaseOrder: order() })),
      http.get('/api/locations', () => HttpResponse.json({ locations: LOCATIONS })),
      http.post('/api/purchase-orders/po1/receipts', async ({ request }) => {
        sent = await request.json();
        key = request.headers.get('Idempotency-Key');
        return HttpResponse.json({
          message: 'Received 10 units; more than ordered: Blue mug (14 of 12)',
          purchaseOrder: order({ status: 'received' }),
          overReceived: [{ productId: 'p1', ordered: 12, received: 14 }],
        });
      }),
    );
    show(<PurchaseOrderScreen />, '/purchase-orders/po1', '/purchase-orders/:poId');
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Received of Blue mug');
    expect(field).toHaveValue(8);
    expect(screen.getByRole('link', { name: 'PDF' })).toHaveAttribute(
      'href',
      '/api/purchase-orders/po1.pdf',
    );
    expect(screen.getByRole('button', { name: 'Send to supplier' })).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '10');
    expect(screen.getByText(/More than ordered: Blue mug \(14 of 12\)/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Receive' }));
    await waitFor(() =>
      expect(sent).toEqual({ locationId: 'main', lines: [{ productId: 'p1', quantity: 10 }] }),
    );
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      await screen.findByText('Received 10 units; more than ordered: Blue mug (14 of 12)', {
        selector: '[role=status]',
      }),
    ).toBeInTheDocument();
  });

  it('lets a stock member receive, but not edit, cancel or send', async () => {
    answerCatalogues('stock');
    server.use(
      http.get('/api/catalogues/c1/purchase-orders/po1', () =>
        HttpResponse.json({ purchaseOrder: order() }),
      ),
      http.get('/api/catalogues/c1/locations', () => HttpResponse.json({ locations: LOCATIONS })),
    );
    show(
      <PurchaseOrderScreen />,
      '/catalogues/c1/purchase-orders/po1',
      '/catalogues/:catalogueId/purchase-orders/:poId',
    );
    await screen.findByLabelText('Received of Blue mug');
    expect(screen.queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send to supplier' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'receive by scanning' })).toHaveAttribute(
      'href',
      '/catalogues/c1/scan?po=po1',
    );
  });
});

describe("a product's suppliers", () => {
  it('are changed by an editor, one preferred, all sent at once', async () => {
    let sent: unknown;
    server.use(
      http.get('/api/suppliers', () =>
        HttpResponse.json({ suppliers: [ACME, { ...ACME, id: 's2', name: 'Bolt & Co' }] }),
      ),
      http.put('/api/products/p1/suppliers', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Suppliers saved', suppliers: [] });
      }),
    );
    const product = {
      id: 'p1',
      suppliers: [
        { supplierId: 's1', name: 'Acme Supply', supplierSku: 'AC-77', cost: 2.5, preferred: true },
      ],
    };
    show(
      <ProductSuppliers product={product} />,
      '/details/product/p1',
      '/details/product/:productId',
    );
    const table = screen.getByRole('table', { name: 'Product suppliers' });
    expect(within(table).getAllByRole('row')[1]!.textContent).toBe(
      'Acme SupplyAC-77$2.50Preferred',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit suppliers' }));
    await user.selectOptions(await screen.findByLabelText('Add a supplier'), 's2');
    await user.type(screen.getByLabelText('Cost at Bolt & Co'), '2.25');
    await user.click(screen.getAllByRole('radio', { name: 'Preferred' })[1]!);
    await user.click(screen.getByRole('button', { name: 'Save suppliers' }));
    await waitFor(() =>
      expect(sent).toEqual({
        suppliers: [
          { supplierId: 's1', supplierSku: 'AC-77', cost: '2.50', preferred: false },
          { supplierId: 's2', supplierSku: null, cost: '2.25', preferred: true },
        ],
      }),
    );
  });
});
