import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { createParser } from 'eventsource-parser';
import { expect, test } from 'vitest';
import type { ProductListResponse } from '@shared/schemas/products.js';
import { applyLiveEvent } from '@/features/live/apply-live-event.js';
import { parseLiveEvent } from '@/features/live/live-stream.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { listed, product } from '../products/fixtures.js';

type ListData = InfiniteData<ProductListResponse>;
const LIST = queryKeys.productList(undefined, { sort: 'name' });
const FILTERED = queryKeys.productList(undefined, { sort: 'name', stock: 'low' });

/** A cache as the list and a product page leave it: two lists, the product, its summary. */
function cachedCatalogue() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const page = (ids: string[]): ListData => ({
    pages: [{ products: ids.map((id) => listed({ id, name: id })), nextCursor: null }],
    pageParams: [null],
  });
  client.setQueryData(LIST, page(['p1', 'p2', 'p3']));
  client.setQueryData(FILTERED, page(['p1']));
  client.setQueryData(queryKeys.product(undefined, 'p1'), product({ id: 'p1', name: 'p1' }));
  client.setQueryData(queryKeys.productSummary(undefined, {}), { count: 3 });
  return client;
}

const listOf = (client: QueryClient, key: readonly unknown[] = LIST) =>
  client.getQueryData<ListData>(key)?.pages.flatMap((page) => page.products) ?? [];

/** The event as it comes off the wire, through the same parser and schemas as the app's. */
async function received(frame: string) {
  const schemas = await import('@shared/schemas/live-events.js');
  const events: NonNullable<ReturnType<typeof parseLiveEvent>>[] = [];
  createParser({
    onEvent: (message) => {
      const event = parseLiveEvent(schemas, message);
      if (event) events.push(event);
    },
  }).feed(frame);
  return events;
}

test('stock.changed patches the stock in every list and the product, without reading the list', async () => {
  const client = cachedCatalogue();
  const [event] = await received(
    'id: 7\nevent: stock.changed\ndata: {"catalogueId":"u1","id":"p1","stock":41,"updatedAt":"2030-01-01T00:00:00.000Z"}\n\n',
  );
  expect(event?.id).toBe('7');
  await applyLiveEvent(client, event!);
  expect(listOf(client).find(({ id }) => id === 'p1')?.stock).toBe(41);
  expect(listOf(client, FILTERED)[0]?.stock).toBe(41);
  expect(client.getQueryData<{ stock: number }>(queryKeys.product(undefined, 'p1'))?.stock).toBe(
    41,
  );
  // Others untouched; lists marked stale but not refetched (nothing observes them here).
  expect(listOf(client).find(({ id }) => id === 'p2')?.stock).toBe(24);
  expect(client.getQueryState(LIST)?.isInvalidated).toBe(true);
  expect(client.getQueryState(queryKeys.productSummary(undefined, {}))?.isInvalidated).toBe(true);
});

test('the same event twice changes nothing more', async () => {
  const client = cachedCatalogue();
  const frame =
    'event: stock.changed\ndata: {"catalogueId":"u1","id":"p2","stock":5,"updatedAt":"2030-01-01T00:00:00.000Z"}\n\n';
  for (const event of await received(frame + frame)) await applyLiveEvent(client, event);
  expect(listOf(client).find(({ id }) => id === 'p2')?.stock).toBe(5);
});

test('product.updated replaces the product, keeping a list item a list item', async () => {
  const client = cachedCatalogue();
  const renamed = product({ id: 'p1', name: 'Renamed', price: 5, stock: 2 });
  const [event] = await received(
    `event: product.updated\ndata: ${JSON.stringify({ catalogueId: 'u1', product: renamed })}\n\n`,
  );
  await applyLiveEvent(client, event!);
  const item = listOf(client).find(({ id }) => id === 'p1');
  expect(item).toMatchObject({ name: 'Renamed', price: 5, stock: 2 });
  expect(item).not.toHaveProperty('createdAt');
  expect(client.getQueryData(queryKeys.product(undefined, 'p1'))).toEqual(renamed);
});

test('product.deleted and products.deleted take products out of the loaded pages', async () => {
  const client = cachedCatalogue();
  for (const event of await received(
    'event: product.deleted\ndata: {"catalogueId":"u1","id":"p2"}\n\nevent: products.deleted\ndata: {"catalogueId":"u1","ids":["p1","p3"]}\n\n',
  )) {
    await applyLiveEvent(client, event);
  }
  expect(listOf(client)).toEqual([]);
  expect(listOf(client, FILTERED)).toEqual([]);
  expect(client.getQueryData(queryKeys.product(undefined, 'p1'))).toBeUndefined();
});

test('reset, import.done and product.created have the lists read again', async () => {
  for (const frame of [
    'event: reset\ndata: {}\n\n',
    'event: import.done\ndata: {"catalogueId":"u1","created":2,"updated":1}\n\n',
    `event: product.created\ndata: ${JSON.stringify({ catalogueId: 'u1', product: product({ id: 'p9' }) })}\n\n`,
  ]) {
    const client = cachedCatalogue();
    const [event] = await received(frame);
    await applyLiveEvent(client, event!);
    expect(client.getQueryState(LIST)?.isInvalidated).toBe(true);
  }
});

test('an event of an unknown kind or a wrong shape is left out', async () => {
  expect(
    await received(
      'event: stock.changed\ndata: {"id":"p1"}\n\nevent: mystery\ndata: {}\n\nevent: reset\ndata: not json\n\n',
    ),
  ).toEqual([]);
});
