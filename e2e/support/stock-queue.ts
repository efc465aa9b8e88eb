import { expect, type Page } from '@playwright/test';

/** The browser's database of stock changes waiting to be sent. */
export const STOCK_QUEUE_DB = 'stockroom-stock-queue';

/**
 * The queue's code and database are there once the signed-in layout has started it (just after
 * the first screen): from then on a change made offline needs nothing from the network.
 */
export const stockQueueReady = (page: Page) =>
  expect
    .poll(() =>
      page.evaluate(
        async (name) => (await indexedDB.databases()).some((db) => db.name === name),
        STOCK_QUEUE_DB,
      ),
    )
    .toBe(true);
