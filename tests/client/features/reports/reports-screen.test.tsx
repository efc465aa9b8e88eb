import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { ReportsScreen } from '@/features/reports/components/ReportsScreen.js';
import { renderRoute } from '../../support/render.js';
import { server } from '../../support/server.js';

// jsdom draws no canvas: the chart library is replaced by one that remembers what it was given.
const drawn = vi.hoisted(() => [] as unknown[][]);
/** Each chart's value axis, as uPlot was given it. */
type Axis = {
  values: (chart: unknown, ticks: number[]) => string[];
  size: (chart: unknown, values: string[] | null, axis: number, cycle: number) => number;
};
const valueAxes = vi.hoisted(() => [] as Axis[]);
vi.mock('uplot', () => ({
  default: Object.assign(
    class {
      constructor(options: { axes: Axis[] }, data: unknown[]) {
        drawn.push(data);
        valueAxes.push(options.axes[1]!);
      }
      setSize() {}
      destroy() {}
    },
    { tzDate: (date: Date) => date },
  ),
}));
vi.mock('uplot/dist/uPlot.min.css', () => ({}));

const catalogues = (role: string) =>
  http.get('/api/catalogues', () =>
    HttpResponse.json({
      catalogues: [
        {
          id: 'u1',
          name: 'Ada stock',
          personal: true,
          role,
          members: 1,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    }),
  );

function answers() {
  server.use(
    catalogues('owner'),
    http.get('/api/products/reports/stock-over-time', ({ request }) => {
      const days = Number(new URL(request.url).searchParams.get('days'));
      return HttpResponse.json({
        days: Array.from({ length: days }, (_, i) => ({
          date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
          units: 10 + i,
          value: (10 + i) * 2.5,
        })),
      });
    }),
    http.get('/api/products/reports/top-movers', () =>
      HttpResponse.json({
        products: [
          {
            id: '00000000-0000-4000-8000-000000000001',
            name: 'Desk lamp',
            unitsIn: 14,
            unitsOut: 5,
            moved: 19,
          },
        ],
      }),
    ),
    http.get('/api/products/reports/dead-stock', () => HttpResponse.json({ products: [] })),
    http.get('/api/products/reports/to-reorder', () =>
      HttpResponse.json({
        products: [
          {
            id: '00000000-0000-4000-8000-000000000002',
            name: 'Mug',
            stock: 3,
            reorderPoint: 10,
            onOrder: 0,
            toOrder: 8,
          },
        ],
      }),
    ),
  );
}

describe('ReportsScreen', () => {
  it(
    'draws the stock over time, lists its figures as a table, and the other reports',
    {
      timeout: 30_000,
    },
    async () => {
      localStorage.setItem('AccessToken', 'token-1');
      answers();
      const { user } = renderRoute(<ReportsScreen />, { path: '/reports' });
      expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeInTheDocument();
      // The answers' schemas load on first use: seconds on a busy machine.
      const figures = await screen.findByRole(
        'region',
        { name: 'Daily figures' },
        { timeout: 15_000 },
      );
      expect(await within(figures).findAllByRole('row')).toHaveLength(31);
      // The 30th day: 39 units worth $97.50.
      expect(within(figures).getAllByRole('row').at(-1)).toHaveTextContent('2026-01-3039$97.50');
      expect(drawn.at(-1)![2]).toHaveLength(30);
      // The value axis reads whole: short labels, and room for the widest.
      const axis = valueAxes.at(-1)!;
      const labels = axis.values(null, [0, 20_000, 40_000, 60_000, 1_500_000]);
      expect(labels).toEqual(['$0', '$20K', '$40K', '$60K', '$1.5M']);
      expect(axis.size(null, ['$55,193.65'], 1, 0)).toBeGreaterThanOrEqual(10 * 7 + 12);
      expect(axis.size(null, ['$1.5M'], 1, 0)).toBeGreaterThanOrEqual(5 * 7 + 12);
      // Beside the list's value at cost, the report's value at price says which it is.
      expect(
        screen.getByText(/price × units: what it would sell for\. The list's value at cost/),
      ).toBeInTheDocument();

      const movers = screen.getByRole('region', { name: 'Top movers' });
      expect(await within(movers).findByRole('link', { name: 'Desk lamp' })).toBeInTheDocument();
      expect(within(movers).getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
        'href',
        '/api/products/reports/top-movers.csv?days=30',
      );
      expect(
        await screen.findByText('Every product with stock moved in 90 days.'),
      ).toBeInTheDocument();
      const reorder = screen.getByRole('region', { name: 'To reorder' });
      expect(await within(reorder).findByRole('link', { name: 'Mug' })).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: '90 days' }));
      await vi.waitFor(
        () =>
          expect(
            within(screen.getByRole('region', { name: 'Daily figures' })).getAllByRole('row'),
          ).toHaveLength(91),
        { timeout: 10_000 },
      );
    },
  );
});
