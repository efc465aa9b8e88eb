import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ProductDetails } from '@/features/products/components/ProductDetails.js';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';
import { renderRoute } from '../../support/render.js';
import { apiError, deferred, server } from '../../support/server.js';
import { answerMovements, movement } from './catalogue.js';
import { product } from './fixtures.js';

/**
 * The product page once it shows a product: its stock history read again (its retries while the
 * server is away, a refresh) never takes the product off the screen for the loading skeleton.
 */
let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});

afterEach(() => {
  act(() => queryClient.clear());
  vi.restoreAllMocks();
});

const MOVEMENTS = queryKeys.movements(undefined, 'p1');

const setup = () =>
  renderRoute(<ProductDetails />, {
    queryClient,
    path: '/details/product/:productId',
    url: '/details/product/p1',
  });

/** The history's requests wait until the test lets them go. */
function holdMovements() {
  const held = deferred<void>();
  server.use(
    http.get('/api/products/p1/movements', async () => {
      await held.promise;
      return HttpResponse.json({ movements: [movement()], nextCursor: null });
    }),
  );
  return held;
}

it(
  'offline, a product known from the list is a steady page: its history says it is not at hand',
  { timeout: 15_000 },
  async () => {
    online = false;
    // What the list showed of it (the route's loader seeds it so, lib/query/product-cache.ts).
    queryClient.setQueryData(
      queryKeys.product(undefined, 'p1'),
      product({ stock: 7, createdAt: '', updatedAt: '' }),
      { updatedAt: 0 },
    );
    server.use(http.get('/api/products/p1/movements', () => HttpResponse.error()));
    setup();

    expect(await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 })).toBeVisible();
    expect(screen.getByText('In Stock: 7')).toBeVisible();
    expect(await screen.findByText('The stock history is not available offline.')).toBeVisible();

    // The history asked for again (every few seconds while the server cannot be reached).
    const held = holdMovements();
    await act(() => void queryClient.refetchQueries({ queryKey: MOVEMENTS }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('Loading the product...')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Desk Lamp', level: 1 })).toBeVisible();
    expect(screen.getByText('The stock history is not available offline.')).toBeVisible();
    held.resolve();
  },
);

it(
  'online, a history read again after it failed keeps the product on the screen',
  { timeout: 15_000 },
  async () => {
    server.use(
      http.get('/api/products/p1', () => HttpResponse.json({ product: product({ stock: 7 }) })),
      http.get('/api/products/p1/movements', () =>
        apiError(503, { message: 'The server is busy. Try again in a moment.' }),
      ),
    );
    setup();
    expect(
      await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 }, { timeout: 5_000 }),
    ).toBeVisible();

    const held = holdMovements();
    await act(() => void queryClient.refetchQueries({ queryKey: MOVEMENTS }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('Loading the product...')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Desk Lamp', level: 1 })).toBeVisible();

    held.resolve();
    answerMovements();
    expect(await screen.findByText('Created')).toBeVisible();
  },
);
