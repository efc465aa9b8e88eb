import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { T } from '@shared/messages.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { renderRoute } from '../../support/render.js';
import { apiError, requests, server } from '../../support/server.js';
import { answerSummary } from './catalogue.js';
import { listed } from './fixtures.js';

const fire = vi.hoisted(() => vi.fn());
vi.mock('sweetalert2', () => ({ default: { fire } }));

const NAMES = ['Lamp', 'Chair', 'Desk', 'Shelf', 'Rug'];
let catalogue = NAMES.map((name, i) => listed({ id: `p${i}`, name }));

beforeEach(() => {
  catalogue = NAMES.map((name, i) => listed({ id: `p${i}`, name }));
  fire.mockResolvedValue({ isConfirmed: true });
  answerSummary();
  server.use(
    http.get('/api/products', () => HttpResponse.json({ products: catalogue, nextCursor: null })),
    http.post('/api/products/bulk-delete', async ({ request }) => {
      const { ids } = (await request.json()) as { ids: string[] };
      catalogue = catalogue.filter((product) => !ids.includes(product.id));
      return HttpResponse.json({ message: T.productsDeleted(ids.length), deleted: ids.length });
    }),
  );
});

const box = (name: string) =>
  screen.getByRole<HTMLInputElement>('checkbox', { name: `Select ${name}` });
const deletes = async () =>
  (await requests()).filter(({ path }) => path === '/products/bulk-delete').map(({ body }) => body);

// The dialog's code loads on the first click that needs it: the question comes a moment later.
const asked = () => waitFor(() => expect(fire).toHaveBeenCalledTimes(1));

const openList = async () => {
  const rendered = renderRoute(<ProductsPage />);
  // The first paint waits for the list and the stock filters' counts.
  await screen.findByRole('list', {}, { timeout: 5000 });
  return rendered;
};

describe('bulk delete', () => {
  // The first to choose a product: it loads the selection bar's modules.
  it(
    'selects a range with Shift, confirms once naming the count, deletes in one request',
    {
      timeout: 10_000,
    },
    async () => {
      const { user } = await openList();
      expect(screen.queryByRole('button', { name: 'Delete selected' })).not.toBeInTheDocument();
      await user.click(box('Chair'));
      await user.keyboard('{Shift>}');
      await user.click(box('Shelf'));
      await user.keyboard('{/Shift}');
      expect(box('Chair')).toBeChecked();
      expect(box('Desk')).toBeChecked();
      expect(box('Shelf')).toBeChecked();
      expect(box('Lamp')).not.toBeChecked();
      expect(box('Rug')).not.toBeChecked();
      // The bar's code loads with the first choice.
      expect(await screen.findByText('3 selected')).toBeVisible();

      await user.click(screen.getByRole('button', { name: 'Delete selected' }));
      await asked();
      expect(fire).toHaveBeenCalledWith(
        expect.objectContaining({
          title: 'Are you sure?',
          html: expect.objectContaining({
            textContent: expect.stringContaining(
              'You will not be able to recover these 3 products!',
            ),
          }),
          icon: 'warning',
          confirmButtonText: 'Yes, delete 3 products!',
          showCancelButton: true,
        }),
      );
      expect(await screen.findByRole('alert')).toHaveTextContent('3 products deleted');
      expect(await deletes()).toEqual([{ ids: ['p1', 'p2', 'p3'] }]);
      await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
      expect(screen.queryByText(/selected/)).not.toBeInTheDocument();
      expect(screen.getByRole('checkbox', { name: 'Select all on page' })).toHaveFocus();
    },
  );

  it('a Shift-click unchecks a range as well', async () => {
    const { user } = await openList();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on page' }));
    await user.click(box('Lamp'));
    await user.keyboard('{Shift>}');
    await user.click(box('Desk'));
    await user.keyboard('{/Shift}');
    expect(['Lamp', 'Chair', 'Desk'].map((name) => box(name).checked)).toEqual([
      false,
      false,
      false,
    ]);
    expect(box('Shelf')).toBeChecked();
    expect(screen.getByText('2 selected')).toBeVisible();
  });

  it("'Select all on page' selects every product shown, and clears them again", async () => {
    const { user } = await openList();
    const all = screen.getByRole('checkbox', { name: 'Select all on page' });
    await user.click(box('Desk'));
    expect(all).toHaveProperty('indeterminate', true);
    await user.click(all);
    expect(NAMES.every((name) => box(name).checked)).toBe(true);
    expect(await screen.findByText('5 selected')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    await asked();
    expect(fire).toHaveBeenCalledWith(
      expect.objectContaining({
        html: expect.objectContaining({
          textContent: expect.stringContaining('You will not be able to recover these 5 products!'),
        }),
      }),
    );
    expect(await screen.findByText('No products')).toBeVisible();
    expect(await deletes()).toEqual([{ ids: ['p0', 'p1', 'p2', 'p3', 'p4'] }]);
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Products', level: 1 })).toHaveFocus(),
    );
  });

  it('names one product in the singular', async () => {
    const { user } = await openList();
    await user.click(box('Rug'));
    await user.click(await screen.findByRole('button', { name: 'Delete selected' }));
    await asked();
    expect(fire).toHaveBeenCalledWith(
      expect.objectContaining({
        html: expect.objectContaining({
          textContent: expect.stringContaining('You will not be able to recover this product!'),
        }),
        confirmButtonText: 'Yes, delete it!',
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('1 product deleted');
  });

  it('sends nothing when the user cancels, and keeps the selection', async () => {
    fire.mockResolvedValue({ isConfirmed: false, isDismissed: true, dismiss: 'cancel' });
    const { user } = await openList();
    await user.click(box('Lamp'));
    await user.click(await screen.findByRole('button', { name: 'Delete selected' }));
    await asked();
    expect(await deletes()).toEqual([]);
    expect(box('Lamp')).toBeChecked();
  });

  it("shows a refusal (another user's product: nothing deleted) as an error toast", async () => {
    server.use(
      http.post('/api/products/bulk-delete', () =>
        apiError(404, { message: 'Some of these products were not found: nothing was deleted' }),
      ),
    );
    const { user } = await openList();
    await user.click(box('Lamp'));
    await user.click(await screen.findByRole('button', { name: 'Delete selected' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Some of these products were not found: nothing was deleted',
    );
    expect(
      within(screen.getByRole('region', { name: 'Product list' })).getAllByRole('listitem'),
    ).toHaveLength(5);
    expect(box('Lamp')).toBeChecked();
  });

  // 101 cards: rendering them takes a while on a loaded machine.
  it('deletes at most 100 products at once, and says so', { timeout: 15_000 }, async () => {
    catalogue = Array.from({ length: 101 }, (_, i) => listed({ id: `q${i}`, name: `Item ${i}` }));
    const { user } = await openList();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on page' }));
    expect(await screen.findByText('101 selected')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Delete selected' })).toBeDisabled();
    expect(screen.getByText('At most 100 products can be deleted at once.')).toBeVisible();
    await user.click(box('Item 0'));
    expect(screen.getByRole('button', { name: 'Delete selected' })).toBeEnabled();
    expect(screen.queryByText(/At most 100/)).not.toBeInTheDocument();
  });

  it('starts afresh under another filter', async () => {
    const { user } = await openList();
    await user.click(box('Lamp'));
    await user.click(screen.getByRole('button', { name: /^Out of Stock/ }));
    await user.click(screen.getByRole('button', { name: /^All\b/ }));
    await waitFor(() => expect(box('Lamp')).not.toBeChecked());
  });
});
