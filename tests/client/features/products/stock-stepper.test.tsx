import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { T } from '@shared/messages.js';
import { ProductDetails } from '@/features/products/components/ProductDetails.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { renderRoute } from '../../support/render.js';
import { apiError, deferred, requests, server } from '../../support/server.js';
import { answerMovements, answerSummary, movement } from './catalogue.js';
import { listed, product } from './fixtures.js';

/** The product's stock on the server, which POST /stock changes as the API does. */
let stock = 3;

const stockChanges = async () =>
  (await requests()).filter(
    ({ method, path }) => method === 'POST' && path === '/products/p1/stock',
  );

beforeEach(() => {
  stock = 3;
  answerSummary();
  answerMovements();
  server.use(
    http.get('/api/products', () =>
      HttpResponse.json({ products: [listed({ stock })], nextCursor: null }),
    ),
    http.get('/api/products/p1', () => HttpResponse.json({ product: product({ stock }) })),
    http.post('/api/products/p1/stock', async ({ request }) => {
      const { delta, count } = (await request.json()) as { delta?: number; count?: number };
      if (count !== undefined) stock = count;
      else if (stock + delta! < 0)
        return apiError(409, { message: T.stockBelowZero(stock, delta!) });
      else stock += delta!;
      return HttpResponse.json({ message: 'Stock updated', product: product({ stock }) });
    }),
  );
});

const openList = async () => {
  const rendered = renderRoute(<ProductsPage />);
  const card = within(await screen.findByRole('listitem'));
  return { ...rendered, card };
};

describe('the stock stepper on a card', () => {
  it('adds and takes away one unit, named for the product', async () => {
    const { user, card } = await openList();
    expect(card.getByText('3 units')).toBeVisible();
    await user.click(card.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
    expect(await card.findByText('4 units')).toBeVisible();
    await user.click(card.getByRole('button', { name: 'Decrease stock of Desk Lamp' }));
    await waitFor(async () => expect(await stockChanges()).toHaveLength(2));
    expect((await stockChanges()).map(({ body }) => body)).toEqual([{ delta: 1 }, { delta: -1 }]);
    await waitFor(() => expect(card.getByText('3 units')).toBeVisible());
    expect(stock).toBe(3);
  });

  it('shows the change before the server answers', async () => {
    const answer = deferred();
    server.use(http.post('/api/products/p1/stock', () => answer.promise));
    const { user, card } = await openList();
    await user.click(card.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
    expect(await card.findByText('4 units')).toBeVisible();
    answer.resolve(HttpResponse.json({ message: 'Stock updated', product: product({ stock: 4 }) }));
    await waitFor(async () => expect(await stockChanges()).toHaveLength(1));
    expect(card.getByText('4 units')).toBeVisible();
  });

  it('sets a count with the Set field: the count itself is sent', async () => {
    const { user, card } = await openList();
    await user.type(card.getByLabelText('New stock of Desk Lamp'), '10');
    await user.click(card.getByRole('button', { name: 'Set stock of Desk Lamp' }));
    expect(await card.findByText('10 units')).toBeVisible();
    expect((await stockChanges()).map(({ body }) => body)).toEqual([{ count: 10 }]);
    expect(card.getByLabelText('New stock of Desk Lamp')).toHaveValue('');
  });

  it.each([
    ['-1', 'Stock cannot be negative'],
    ['\u22125', 'Stock cannot be negative'],
    ['2.5', 'Stock must be a whole number'],
    ['many', 'The stock of the product is required'],
  ])('refuses %s in the Set field without asking the server', async (typed, message) => {
    const { user, card } = await openList();
    const field = card.getByLabelText('New stock of Desk Lamp');
    await user.type(field, typed);
    await user.keyboard('{Enter}');
    expect(await card.findByText(message)).toBeVisible();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(message);
    expect(await stockChanges()).toEqual([]);
  });

  it('sends a count equal to the count shown too: the count is worth recording', async () => {
    const { user, card } = await openList();
    await user.type(card.getByLabelText('New stock of Desk Lamp'), '3{Enter}');
    expect(card.getByLabelText('New stock of Desk Lamp')).toHaveValue('');
    await waitFor(async () => expect(await stockChanges()).toHaveLength(1));
    expect((await stockChanges()).map(({ body }) => body)).toEqual([{ count: 3 }]);
  });

  it('cannot go below 0 from the page', async () => {
    stock = 0;
    const { card } = await openList();
    expect(card.getByRole('button', { name: 'Decrease stock of Desk Lamp' })).toBeDisabled();
    expect(card.getByRole('button', { name: 'Increase stock of Desk Lamp' })).toBeEnabled();
  });

  it("takes a refused change back and says why, with the server's message", async () => {
    const { user, card } = await openList();
    // Sold elsewhere meanwhile: the server has 0 while the card still shows 3.
    stock = 0;
    const answer = deferred();
    server.use(http.post('/api/products/p1/stock', () => answer.promise));
    await user.click(card.getByRole('button', { name: 'Decrease stock of Desk Lamp' }));
    expect(await card.findByText('2 units')).toBeVisible();
    const reread = deferred();
    server.use(http.get('/api/products', () => reread.promise));
    answer.resolve(apiError(409, { message: T.stockBelowZero(0, -1) }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Not enough stock: 0 in stock, cannot take away 1');
    // Taken back at once...
    expect(await card.findByText('3 units')).toBeVisible();
    // ...then the list is read again: the count the server has.
    reread.resolve(HttpResponse.json({ products: [listed({ stock })], nextCursor: null }));
    expect(await card.findByText('Out of Stock')).toBeVisible();
    expect(stock).toBe(0);
  });

  /** Two +1 on the card, both still unanswered: the card already shows 5. */
  const twoIncreases = async () => {
    const first = deferred();
    const second = deferred();
    const answers = [first, second];
    server.use(http.post('/api/products/p1/stock', () => answers.shift()!.promise));
    const { user, card } = await openList();
    await user.click(card.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
    await user.click(card.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
    expect(await card.findByText('5 units')).toBeVisible();
    return { first, second, card };
  };

  it('an answer does not undo a later change still on its way', async () => {
    const { first, second, card } = await twoIncreases();
    first.resolve(HttpResponse.json({ message: 'Stock updated', product: product({ stock: 4 }) }));
    await waitFor(async () => expect(await stockChanges()).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(card.getByText('5 units')).toBeVisible();
    second.resolve(HttpResponse.json({ message: 'Stock updated', product: product({ stock: 6 }) }));
    // The last answer is the server's word (someone else added one meanwhile).
    expect(await card.findByText('6 units')).toBeVisible();
  });

  it('keeps other changes in flight when one is refused', async () => {
    const { first, second, card } = await twoIncreases();
    second.resolve(apiError(409, { message: 'Stock cannot be more than 2147483647' }));
    // Only the refused +1 is taken back; the first is still on its way.
    expect(await card.findByText('4 units')).toBeVisible();
    first.resolve(HttpResponse.json({ message: 'Stock updated', product: product({ stock: 4 }) }));
    stock = 4;
    await waitFor(async () => expect(await stockChanges()).toHaveLength(2));
    expect(card.getByText('4 units')).toBeVisible();
  });
});

describe('the stock stepper on the detail page', () => {
  const openDetails = async () => {
    const rendered = renderRoute(<ProductDetails />, {
      path: '/details/product/:productId',
      url: '/details/product/p1',
    });
    await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 });
    return rendered;
  };

  it('sets the stock with a reason and note, and the history shows the count', async () => {
    const history = [movement({ oldStock: 0, newStock: 3, delta: 3 })];
    server.use(
      http.get('/api/products/p1/movements', () =>
        HttpResponse.json({ movements: history, nextCursor: null }),
      ),
    );
    const { user } = await openDetails();
    const list = within(screen.getByRole('list', { name: 'Stock history' }));
    expect(list.getAllByRole('listitem')).toHaveLength(1);

    history.unshift(
      movement({
        id: 'm2',
        oldStock: 3,
        newStock: 12,
        delta: 9,
        source: 'count',
        reason: 'received',
        note: 'Delivery',
      }),
    );
    await user.type(screen.getByLabelText('New stock of Desk Lamp'), '12');
    await user.selectOptions(screen.getByLabelText('Reason (optional)'), 'received');
    await user.type(screen.getByLabelText('Note (optional)'), 'Delivery');
    await user.click(screen.getByRole('button', { name: 'Set stock of Desk Lamp' }));

    expect(await screen.findByText('In Stock: 12')).toBeVisible();
    expect((await stockChanges()).map(({ body }) => body)).toEqual([
      { count: 12, reason: 'received', note: 'Delivery' },
    ]);
    // The history is read again after the change.
    await waitFor(() => expect(list.getAllByRole('listitem')).toHaveLength(2));
    const [latest] = list.getAllByRole('listitem');
    expect(latest).toHaveTextContent(/^12Counted 12 · Received/);
    expect(latest).toHaveTextContent(/stock 3 .*12/);
    expect(latest).toHaveTextContent('Delivery');
    expect(screen.getByLabelText('Note (optional)')).toHaveValue('');
    expect(screen.getByLabelText('Reason (optional)')).toHaveValue('');
  });

  it('filters the history by reason and loads older changes 20 at a time', async () => {
    const asked: string[] = [];
    const page = (from: number, reason: string | null) =>
      Array.from({ length: 20 }, (_, i) =>
        movement({
          id: `m${from + i}`,
          delta: 1,
          source: 'adjustment',
          reason: reason === null ? null : (reason as 'sold'),
          note: `change ${from + i}`,
        }),
      );
    server.use(
      http.get('/api/products/p1/movements', ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(query.toString());
        const reason = query.get('reason');
        const older = query.get('cursor') === 'c1';
        return HttpResponse.json({
          movements: page(older ? 20 : 0, reason),
          nextCursor: older || reason ? null : 'c1',
        });
      }),
    );
    const { user } = await openDetails();
    const list = () => within(screen.getByRole('list', { name: 'Stock history' }));
    expect(list().getAllByRole('listitem')).toHaveLength(20);
    await user.click(screen.getByRole('button', { name: 'Load 20 more' }));
    await waitFor(() => expect(list().getAllByRole('listitem')).toHaveLength(40));
    expect(screen.queryByRole('button', { name: 'Load 20 more' })).toBeNull();
    expect(asked).toContain('limit=20&cursor=c1');

    await user.selectOptions(screen.getByLabelText('Reason'), 'sold');
    await waitFor(() => expect(list().getAllByRole('listitem')).toHaveLength(20));
    expect(list().getAllByRole('listitem')[0]).toHaveTextContent('Adjusted · Sold');
    expect(asked).toContain('limit=20&reason=sold');
  });

  it('a refused change is taken back on the page, and the toast says why', async () => {
    const { user } = await openDetails();
    stock = 0;
    await user.click(screen.getByRole('button', { name: 'Decrease stock of Desk Lamp' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Not enough stock: 0 in stock, cannot take away 1',
    );
    expect(await screen.findByText('In Stock: 0')).toBeVisible();
  });
});
