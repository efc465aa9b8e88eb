import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { createParser } from 'eventsource-parser';
import { expect, test, vi } from 'vitest';
import type { Catalogue } from '@shared/schemas/catalogues.js';
import type { ProductListResponse } from '@shared/schemas/products.js';
import { applyLiveEvent } from '@/features/live/apply-live-event.js';
import { applyCatalogueEvent } from '@/features/live/catalogue-events.js';
import { parseCatalogueEvent, parseLiveEvent } from '@/features/live/live-stream.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { catalogue } from '../catalogues/fixtures.js';
import { listed, product } from '../products/fixtures.js';

type ListData = InfiniteData<ProductListResponse>;
const PERSONAL = queryKeys.productList(undefined, {});
const SHARED = queryKeys.productList('c1', {});

/** Both catalogues hold a product p1 in their list (ids are unique in practice; here to prove it). */
function cachedCatalogues() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const page = (stock: number): ListData => ({
    pages: [{ products: [listed({ id: 'p1', stock })], nextCursor: null }],
    pageParams: [null],
  });
  client.setQueryData(PERSONAL, page(1));
  client.setQueryData(SHARED, page(2));
  client.setQueryData(queryKeys.product('c1', 'p1'), product({ id: 'p1', stock: 2 }));
  client.setQueryData(queryKeys.members('c1'), []);
  client.setQueryData<Catalogue[]>(queryKeys.catalogues, [catalogue()]);
  return client;
}

const stockOf = (client: QueryClient, key: readonly unknown[]) =>
  client.getQueryData<ListData>(key)?.pages[0]?.products[0]?.stock;

function messages(frame: string) {
  const all: Parameters<typeof parseCatalogueEvent>[0][] = [];
  createParser({ onEvent: (message) => all.push(message) }).feed(frame);
  return all;
}

test("an event is applied to its own catalogue's data only", async () => {
  const client = cachedCatalogues();
  const schemas = await import('@shared/schemas/live-events.js');
  const [message] = messages(
    'id: 3\nevent: stock.changed\ndata: {"catalogueId":"c1","id":"p1","stock":9,"updatedAt":"2030-01-01T00:00:00.000Z"}\n\n',
  );
  const event = parseLiveEvent(schemas, message!);
  expect(event?.catalogueId).toBe('c1');
  await applyLiveEvent(client, event!, event!.catalogueId);
  expect(stockOf(client, SHARED)).toBe(9);
  expect(client.getQueryData<{ stock: number }>(queryKeys.product('c1', 'p1'))?.stock).toBe(9);
  expect(stockOf(client, PERSONAL)).toBe(1);
});

test('catalogue.updated reads the catalogues and its members again', async () => {
  const client = cachedCatalogues();
  const [message] = messages('event: catalogue.updated\ndata: {"catalogueId":"c1"}\n\n');
  const event = parseCatalogueEvent(message!);
  expect(event).toEqual({ kind: 'catalogue.updated', catalogueId: 'c1' });
  await applyCatalogueEvent(client, event!);
  expect(client.getQueryState(queryKeys.catalogues)?.isInvalidated).toBe(true);
  expect(client.getQueryState(queryKeys.members('c1'))?.isInvalidated).toBe(true);
  expect(stockOf(client, SHARED)).toBe(2);
});

test("catalogue.removed drops that catalogue's data and tells the screens, with its name", async () => {
  const client = cachedCatalogues();
  const onCatalogueRemoved = vi.fn();
  const [message] = messages('event: catalogue.removed\ndata: {"catalogueId":"c1"}\n\n');
  await applyCatalogueEvent(client, parseCatalogueEvent(message!)!, { onCatalogueRemoved });
  expect(onCatalogueRemoved).toHaveBeenCalledWith('c1', 'Team shop');
  expect(client.getQueryData(SHARED)).toBeUndefined();
  expect(client.getQueryData(queryKeys.product('c1', 'p1'))).toBeUndefined();
  expect(client.getQueryData(queryKeys.members('c1'))).toBeUndefined();
  expect(client.getQueryData(queryKeys.catalogues)).toEqual([]);
  // The personal catalogue keeps everything.
  expect(stockOf(client, PERSONAL)).toBe(1);
});

test('a catalogue event without its catalogue is ignored', () => {
  const [message] = messages('event: catalogue.removed\ndata: {}\n\n');
  expect(parseCatalogueEvent(message!)).toBeUndefined();
});
