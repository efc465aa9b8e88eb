import { http, HttpResponse } from 'msw';
import type { ProductSummary, StockMovement } from '@shared/schemas/catalogue.js';
import { server } from '../../support/server.js';

/** A summary's figures; `toReorder` is 0 unless given. */
type Figures = Omit<ProductSummary, 'toReorder'> & { toReorder?: number };

/** GET /api/products/summary, answered with these figures (or from the request's query). */
export const answerSummary = (
  summary: Figures | ((query: URLSearchParams) => Figures) = {
    count: 0,
    units: 0,
    value: 0,
  },
) =>
  server.use(
    http.get('/api/products/summary', ({ request }) =>
      HttpResponse.json({
        toReorder: 0,
        ...(typeof summary === 'function' ? summary(new URL(request.url).searchParams) : summary),
      }),
    ),
  );

export const movement = (overrides: Partial<StockMovement> = {}): StockMovement => ({
  id: 'm1',
  productId: 'p1',
  createdAt: '2025-01-02T09:30:00.000Z',
  oldStock: 0,
  newStock: 24,
  delta: 24,
  source: 'create',
  reason: null,
  note: null,
  countId: null,
  purchaseOrderId: null,
  actor: null,
  ...overrides,
});

/** GET /api/products/{id}/movements, answered with these movements, newest first. */
export const answerMovements = (movements: StockMovement[] = [movement()], id = 'p1') =>
  server.use(
    http.get(`/api/products/${id}/movements`, () =>
      HttpResponse.json({ movements, nextCursor: null }),
    ),
  );
