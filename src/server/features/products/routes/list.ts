import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  productSummaryQuerySchema,
  productSummarySchema,
  type ProductSummary,
} from '../../../../shared/schemas/catalogue.js';
import { productListQuerySchema } from '../../../../shared/schemas/product-queries.js';
import {
  productListResponseSchema,
  type ProductListResponse,
} from '../../../../shared/schemas/products.js';
import { L } from '../../../../shared/schemas/locations/locations.js';
import { notFound } from '../../../lib/http-error.js';
import { actionConfig, currentCatalogue } from '../../catalogues/index.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { moneyTotal } from '../exact-sum.js';
import type { ProductsContext } from './context.js';
import { productDocs } from './route-options.js';
import { sendCached } from './send-cached.js';
import { errorResponses } from '../../../http/route-options.js';
import { named } from '../../../http/plugin-name.js';

export const listRoute = named<ProductsContext>('list-route', async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  /** The ids of a location and those under it, for `location`; 404 for another catalogue's. */
  const subtreeOf = async (catalogueId: string, location: string | undefined) => {
    if (location === undefined) return undefined;
    const ids = await fastify.locations.subtree(catalogueId, location);
    if (!ids) throw notFound(L.notFound);
    return ids;
  };

  app.get(
    '/',
    {
      ...actionConfig(app, 'read'),
      schema: {
        ...productDocs,
        operationId: 'listProducts',
        summary: "A page of the signed-in user's products",
        description:
          "Newest first unless `sort` says otherwise. `q` searches name and description (case and accents ignored). `stock=low` keeps products with 1 to 10 units, `stock=out` those with none, `stock=reorder` those at or below their reorder point (their own, else the one of their catalogue); `tag` those that carry that tag (case ignored). `location` (a location id) those with stock in that location or one under it; 404 for a location that is not the catalogue's. Pass `nextCursor` back as `cursor` for the next page; it is null on the last one.",
        querystring: productListQuerySchema,
        response: { 200: productListResponseSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { q, sort, stock, tag, location, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(sort, cursor);
      const query = { q, sort, stock, tag, location, limit, cursor };
      const key = { catalogue, query };
      return sendCached(reply, context.responses, key, async () => {
        const locationIds = await subtreeOf(catalogue.id, location);
        const options = { q, sort, stock, tag, locationIds, limit, after };
        const { rows, hasMore } = await context.repository.list(catalogue.id, options);
        const last = rows.at(-1);
        const page: ProductListResponse = {
          products: rows.map(context.present.listItem),
          nextCursor:
            hasMore && last ? encodeCursor(sort, { key: last.sort_key, id: last.id }) : null,
        };
        return page;
      });
    },
  );

  app.get(
    '/summary',
    {
      ...actionConfig(app, 'read'),
      schema: {
        ...productDocs,
        operationId: 'getProductSummary',
        summary: 'How many products the list holds, their units and their value',
        description:
          "For the same `q`, `stock`, `tag` and `location` as the list: `count` products, `units` in stock, and `value`, the sum of price × stock in dollars, added up in integer cents: a JSON number while its text is exactly the amount, otherwise (past about $70 trillion) a string holding the exact decimal. When any of those products has a cost, `valueAtCost` is the sum of cost × stock of those that have one, added up and sent the same way. `toReorder` counts those at or below their reorder point. With `location`, `units` and both values count the units held in that location and those under it (a product's `stock` is still what `stock` filters and `toReorder` compares); 404 for a location that is not the catalogue's.",
        querystring: productSummaryQuerySchema,
        response: { 200: productSummarySchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { q, stock, tag, location } = request.query;
      const query = { route: 'summary', q, stock, tag, location };
      const key = { catalogue, query };
      return sendCached(reply, context.responses, key, async () => {
        const selection = { q, stock, tag };
        const totals =
          location === undefined
            ? await context.repository.summary(catalogue.id, selection)
            : await context.repository.heldSummary(catalogue.id, location, selection, () =>
                fastify.locations.subtree(catalogue.id, location),
              );
        if (!totals) throw notFound(L.notFound);
        const { count, units, valueCents, valueAtCostCents, toReorder } = totals;
        const summary: Omit<ProductSummary, 'toReorder'> = {
          count,
          units,
          value: moneyTotal(valueCents),
        };
        if (valueAtCostCents !== undefined) summary.valueAtCost = moneyTotal(valueAtCostCents);
        return { ...summary, toReorder };
      });
    },
  );
});
