import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Count, CountDetail, CountLine } from '@shared/schemas/counts/counts.js';
import { applyLiveEvent } from '@/features/live/apply-live-event.js';
import { CountScreen } from '@/features/counts/components/CountScreen.js';
import { CountsScreen } from '@/features/counts/components/CountsScreen.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { product } from '../products/fixtures.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { MAIN_LOCATION, server } from '../../support/server.js';
import { answerCatalogues, USER } from '../catalogues/fixtures.js';

// The dialog asks and is answered 'yes': what the screen sends is what is tested.
const fire = vi.hoisted(() => vi.fn(() => Promise.resolve({ isConfirmed: true })));
vi.mock('sweetalert2', () => ({ default: { fire } }));

// A screen's first render loads its chunks and schemas: more than five seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const COUNT_ID = '00000000-0000-4000-8000-0000000000c1';
const MUG = '00000000-0000-4000-8000-0000000000a1';
const LAMP = '00000000-0000-4000-8000-0000000000a2';

const aCount = (overrides: Partial<Count> = {}): Count => ({
  id: COUNT_ID,
  name: 'Main count',
  scope: { kind: 'location', locationId: MAIN_LOCATION.id, path: 'Main' },
  blind: false,
  status: 'open',
  createdBy: { id: USER.id, name: 'Ada' },
  createdAt: '2026-12-01T09:00:00.000Z',
  lines: 1,
  ...overrides,
});

const aLine = (overrides: Partial<CountLine> = {}): CountLine => ({
  productId: MUG,
  name: 'Blue mug',
  sku: 'MUG-1',
  barcode: null,
  locationId: MAIN_LOCATION.id,
  counted: 4,
  countedBy: { id: USER.id, name: 'Ada' },
  countedAt: '2026-12-01T09:05:00.000Z',
  ...overrides,
});

function show(element: React.ReactElement, url: string, path: string) {
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.user, USER);
  return renderRoute(element, { path, url, queryClient });
}

const answerCount = (detail: () => CountDetail) =>
  server.use(http.get(`/api/counts/${COUNT_ID}`, () => HttpResponse.json(detail())));

describe('the counts screen', () => {
  it('lists the counts and starts a blind count of a tag', async () => {
    let sent: unknown;
    server.use(
      http.get('/api/counts', () =>
        HttpResponse.json({
          counts: [
            aCount(),
            aCount({
              id: LAMP,
              name: 'Lamps',
              scope: { kind: 'tag', tag: 'lamps' },
              status: 'posted',
            }),
          ],
        }),
      ),
      http.post('/api/counts', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          { message: 'Count started', count: aCount({ id: LAMP, name: 'Tag: lamps' }) },
          { status: 201 },
        );
      }),
    );
    const { user } = show(<CountsScreen />, '/counts', '/counts');
    const table = await screen.findByRole('table');
    await within(table).findByRole('link', { name: 'Main count' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 4)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Main count', 'Main and below', 'Open', '1'],
      ['Lamps', 'Tag: lamps', 'Posted', '1'],
    ]);
    await user.click(screen.getByRole('button', { name: 'Tag' }));
    await user.type(screen.getByLabelText('Tag'), 'lamps');
    await user.click(screen.getByLabelText(/Blind count/));
    await user.click(screen.getByRole('button', { name: 'Start count' }));
    await waitFor(() =>
      expect(sent).toEqual({ scope: { kind: 'tag', tag: 'lamps' }, blind: true }),
    );
    expect(await screen.findByTestId('location')).toHaveTextContent(`/counts/${LAMP}`);
  });

  it('offers a stock member no new count', async () => {
    answerCatalogues('stock');
    server.use(
      http.get('/api/catalogues/c1/counts', () => HttpResponse.json({ counts: [aCount()] })),
    );
    show(<CountsScreen />, '/catalogues/c1/counts', '/catalogues/:catalogueId/counts');
    await screen.findByRole('link', { name: 'Main count' });
    expect(screen.queryByRole('heading', { name: 'New count' })).not.toBeInTheDocument();
  });
});

describe("a count's screen", () => {
  it("hides a blind count's expected quantities and shows another counter's line live", async () => {
    const lines = [aLine()];
    answerCount(() => ({
      count: aCount({ blind: true, lines: lines.length }),
      expectedHidden: true,
      lines,
      nextCursor: null,
    }));
    const { queryClient } = show(<CountScreen />, `/counts/${COUNT_ID}`, '/counts/:countId');
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Location', 'Counted', 'Counted by']);
    await applyLiveEvent(queryClient, {
      id: '9',
      kind: 'count.line',
      data: {
        catalogueId: USER.id,
        countId: COUNT_ID,
        productId: MUG,
        locationId: MAIN_LOCATION.id,
        counted: 7,
        countedBy: { id: '00000000-0000-4000-8000-0000000000b2', name: 'Grace' },
        countedAt: '2026-12-01T09:06:00.000Z',
      },
    });
    const row = within(table).getAllByRole('row')[1]!;
    await waitFor(() => expect(within(row).getAllByRole('cell')[2]).toHaveTextContent('7'));
    expect(row).toHaveTextContent('Grace');
  });

  it('reads a burst of new lines again at most twice, and shows the last of them', async () => {
    const lines = [aLine()];
    let reads = 0;
    server.use(
      http.get(`/api/counts/${COUNT_ID}`, async () => {
        reads += 1;
        // What the server holds when the read arrives; the answer takes a while to come back.
        const held = [...lines];
        await delay(400);
        return HttpResponse.json({
          count: aCount({ blind: true, lines: held.length }),
          expectedHidden: true,
          lines: held,
          nextCursor: null,
        });
      }),
    );
    const { queryClient } = show(<CountScreen />, `/counts/${COUNT_ID}`, '/counts/:countId');
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    reads = 0;
    // Twenty counters' new lines (none of them loaded: each needs the count read again), heard
    // as the stream delivers them, without waiting for one another.
    for (let i = 0; i < 20; i += 1) {
      const line = aLine({
        productId: `00000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
        name: `Counted product ${i}`,
        counted: i + 1,
        countedBy: { id: '00000000-0000-4000-8000-0000000000b2', name: 'Grace' },
      });
      lines.push(line);
      void applyLiveEvent(queryClient, {
        id: String(10 + i),
        kind: 'count.line',
        data: {
          catalogueId: USER.id,
          countId: COUNT_ID,
          productId: line.productId,
          locationId: line.locationId,
          counted: line.counted,
          countedBy: line.countedBy,
          countedAt: line.countedAt,
        },
      });
      await delay(5);
    }
    expect(await within(table).findByText('Counted product 19')).toBeVisible();
    // Nothing more comes once the reads settled.
    await delay(500);
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(2);
    expect(within(table).getAllByRole('row')).toHaveLength(22);
  });

  it('counts a product typed by SKU, adding to its line', async () => {
    let sent: unknown;
    let key: string | null = null;
    answerCount(() => ({
      count: aCount({ lines: 0 }),
      expectedHidden: true,
      lines: [],
      nextCursor: null,
    }));
    server.use(
      http.get('/api/products', () =>
        HttpResponse.json({
          products: [product({ id: LAMP, name: 'Desk lamp', sku: 'LAMP-2' })],
          nextCursor: null,
        }),
      ),
      http.post(`/api/counts/${COUNT_ID}/lines`, async ({ request }) => {
        sent = await request.json();
        key = request.headers.get('Idempotency-Key');
        return HttpResponse.json({
          message: 'Counted',
          line: aLine({ productId: LAMP, name: 'Desk lamp', counted: 5 }),
        });
      }),
    );
    const { user } = show(<CountScreen />, `/counts/${COUNT_ID}`, '/counts/:countId');
    await user.type(await screen.findByLabelText('Product'), 'lamp-2');
    await user.type(screen.getByLabelText('Quantity'), '3');
    await user.click(screen.getByLabelText(/Add to what the line holds/));
    await user.click(screen.getByRole('button', { name: 'Count' }));
    await waitFor(() =>
      expect(sent).toEqual({
        productId: LAMP,
        locationId: MAIN_LOCATION.id,
        counted: 3,
        add: true,
      }),
    );
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("finds a typed product among the list's loaded products when the search gets no answer", async () => {
    let sent: unknown;
    answerCount(() => ({
      count: aCount({ lines: 0 }),
      expectedHidden: true,
      lines: [],
      nextCursor: null,
    }));
    server.use(
      http.get('/api/products', () => HttpResponse.error()),
      http.post(`/api/counts/${COUNT_ID}/lines`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Counted', line: aLine({ productId: LAMP }) });
      }),
    );
    const { user, queryClient } = show(<CountScreen />, `/counts/${COUNT_ID}`, '/counts/:countId');
    queryClient.setQueryData(queryKeys.productList(undefined, {}), {
      pages: [{ products: [product({ id: LAMP, name: 'Desk lamp', sku: 'LAMP-2' })] }],
      pageParams: [undefined],
    });
    await user.type(await screen.findByLabelText('Product'), 'LAMP-2');
    await user.type(screen.getByLabelText('Quantity'), '2');
    await user.click(screen.getByRole('button', { name: 'Count' }));
    await waitFor(() =>
      expect(sent).toEqual({
        productId: LAMP,
        locationId: MAIN_LOCATION.id,
        counted: 2,
        add: false,
      }),
    );
  });

  it(
    'reviews the differences, recounts a line and posts with the uncounted as 0',
    { timeout: 20_000 },
    async () => {
      let posted: unknown;
      let recounted: unknown;
      answerCount(() => ({
        count: aCount({ status: 'review' }),
        expectedHidden: false,
        lines: [aLine({ expected: 6, variance: -2, varianceAtCost: -5 })],
        nextCursor: null,
        summary: { lines: 1, varianceUnits: -2, varianceValue: -5, differenceValue: 5 },
        uncounted: {
          total: 1,
          places: [
            { productId: LAMP, name: 'Desk lamp', locationId: MAIN_LOCATION.id, expected: 2 },
          ],
        },
      }));
      server.use(
        http.post(`/api/counts/${COUNT_ID}/lines`, async ({ request }) => {
          recounted = await request.json();
          return HttpResponse.json({ message: 'Counted', line: aLine({ counted: 5 }) });
        }),
        http.post(`/api/counts/${COUNT_ID}/post`, async ({ request }) => {
          posted = await request.json();
          return HttpResponse.json({
            message: 'Count posted: 2 lines changed stock',
            count: aCount({ status: 'posted' }),
            movements: 2,
          });
        }),
      );
      const { user } = show(<CountScreen />, `/counts/${COUNT_ID}`, '/counts/:countId');
      const summary = await screen.findByLabelText('Differences');
      expect(summary).toHaveTextContent('Variance-2 units');
      expect(summary).toHaveTextContent('At cost-$5.00');
      expect(summary).toHaveTextContent('Value of the differences$5.00');
      expect(screen.getByLabelText('Never counted')).toHaveTextContent(
        'Desk lamp at Main2 units expected',
      );
      const row = within(screen.getByRole('table')).getAllByRole('row')[1]!;
      expect(
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ).toEqual(expect.arrayContaining(['4', '6', '-2', '-$5.00']));

      await user.click(screen.getByLabelText('Recount Blue mug at Main'));
      await user.click(screen.getByRole('button', { name: 'Recount chosen lines' }));
      await user.type(
        within(screen.getByRole('form', { name: 'Recount' })).getByRole('spinbutton'),
        '5',
      );
      await user.click(screen.getByRole('button', { name: 'Save recount' }));
      await waitFor(() =>
        expect(recounted).toEqual({
          productId: MUG,
          locationId: MAIN_LOCATION.id,
          counted: 5,
          add: false,
        }),
      );

      await user.click(screen.getByLabelText('Count uncounted as 0'));
      await user.click(screen.getByRole('button', { name: 'Post' }));
      await waitFor(() =>
        expect(fire).toHaveBeenCalledWith(expect.objectContaining({ title: 'Post this count?' })),
      );
      await waitFor(() => expect(posted).toEqual({ uncountedAsZero: true }));
    },
  );

  it('undoes a posted count through its activity entry, while the log says it may', async () => {
    let undone = false;
    let asked: URLSearchParams | undefined;
    answerCount(() => ({
      count: aCount({ status: undone ? 'review' : 'posted' }),
      expectedHidden: false,
      lines: [aLine({ expected: 6, variance: -2, varianceAtCost: null })],
      nextCursor: null,
      summary: { lines: 1, varianceUnits: -2, varianceValue: 0, differenceValue: 0 },
    }));
    const entry = {
      id: '41',
      kind: 'count.posted',
      at: '2026-12-01T10:00:00.000Z',
      source: 'form',
      actor: { id: USER.id, name: 'Ada' },
      product: null,
      changes: null,
      data: { countId: COUNT_ID, name: 'Main count', lines: 1, units: -2, products: 1 },
      undoable: true,
      undoneBy: null,
    };
    server.use(
      http.get('/api/products/activity', ({ request }) => {
        asked = new URL(request.url).searchParams;
        return HttpResponse.json({ entries: [entry], nextCursor: null });
      }),
      http.post('/api/products/activity/41/undo', () => {
        undone = true;
        return HttpResponse.json({
          entry: { ...entry, id: '42', kind: 'undo', data: { undid: '41' }, undoable: false },
        });
      }),
    );
    const { user } = show(<CountScreen />, `/counts/${COUNT_ID}`, '/counts/:countId');
    await user.click(await screen.findByRole('button', { name: 'Undo posting' }));
    await waitFor(() => expect(undone).toBe(true));
    expect(asked?.get('kind')).toBe('count.posted');
    expect(await screen.findByText('In review')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Undo posting' })).not.toBeInTheDocument();
  });
});
