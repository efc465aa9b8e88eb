import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CatalogueAction } from '../../../shared/catalogue-roles.js';
import {
  DEAD_STOCK_DAYS,
  deadStockSchema,
  reportRowsCsvQuerySchema,
  reportRowsQuerySchema,
  stockOverTimeQuerySchema,
  stockOverTimeSchema,
  topMoversQuerySchema,
  topMoversSchema,
  toReorderSchema,
  type DeadStock,
  type StockOverTime,
  type TopMovers,
  type ToReorder,
} from '../../../shared/schemas/reports.js';
import { COSTLY_WORK_NOTE, costlyTurn } from '../../http/costly-work.js';
import { errorResponses } from '../../http/route-options.js';
import { actionConfig, currentCatalogue } from '../catalogues/index.js';
import { moneyTotal, productDocs } from '../products/index.js';
import { CSV_NOTE, csvResponse, dollars } from './csv.js';
import { sendCsv, sendProductCsv } from './report-files.js';
import { DAY_MS, ReportQueries, type DayStock } from './queries.js';
import { toOrder } from './to-order.js';

/**
 * A value rebuilt from a history that does not add up (stock changed without a movement, which no
 * write path does) could come out below zero: shown as none rather than failing the answer.
 */
const atLeastZero = (cents: bigint) => (cents < 0n ? 0n : cents);

const isoDate = (at: number) => new Date(at).toISOString().slice(0, 10);
const isoTime = (at: number) => new Date(at).toISOString();

/**
 * A catalogue's stock reports under `/reports`: each as JSON (action `read`) and as a CSV file
 * (action `export`). Registered in the personal scope and again in every catalogue's.
 */
export const reportRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const queries = new ReportQueries(app.db, app.database.dialect);
  // Each report waits for a turn among the costly answers: a year of a large catalogue's
  // movements is summed per day.
  const options = (catalogueAction: CatalogueAction) => ({
    ...actionConfig(app, catalogueAction),
    preHandler: costlyTurn,
  });

  const stockDays = (points: DayStock[]): StockOverTime => ({
    days: points.map((point) => ({
      date: isoDate(point.start),
      units: point.units,
      value: moneyTotal(atLeastZero(point.valueCents)),
    })),
  });
  const STOCK_DESCRIPTION = `One point per UTC day, oldest first, the last one today: \`units\`, the units in stock at the end of that day, rebuilt from the stock movements (today's stock less every later change), and \`value\`, those units at today's prices in dollars, added up exactly in integer cents. Products since deleted take their history with them. ${COSTLY_WORK_NOTE}`;

  app.get(
    '/reports/stock-over-time',
    {
      ...options('read'),
      schema: {
        ...productDocs,
        operationId: 'getStockOverTime',
        summary: 'Units in stock and their value at the end of each of the last 30, 90 or 365 days',
        description: STOCK_DESCRIPTION,
        querystring: stockOverTimeQuerySchema,
        response: { 200: stockOverTimeSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      const catalogue = currentCatalogue(request);
      const { days } = request.query;
      return stockDays(await queries.stockOverTime(catalogue.id, app.clock.now(), days));
    },
  );

  app.get(
    '/reports/stock-over-time.csv',
    {
      ...options('export'),
      schema: {
        ...productDocs,
        operationId: 'exportStockOverTimeCsv',
        summary: 'The stock over time as a CSV file',
        description: `${STOCK_DESCRIPTION} Columns: Date, Units in stock, Value (dollars). ${CSV_NOTE}`,
        querystring: stockOverTimeQuerySchema,
        response: { ...csvResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { days } = request.query;
      const points = await queries.stockOverTime(catalogue.id, app.clock.now(), days);
      const columns = [
        { key: 'date', header: 'Date' },
        { key: 'units', header: 'Units in stock' },
        { key: 'value', header: 'Value' },
      ];
      const rows = points.map((point) => ({
        date: isoDate(point.start),
        units: point.units,
        value: dollars(atLeastZero(point.valueCents)),
      }));
      return sendCsv(request, reply, `stock-over-time-${days}-days.csv`, columns, rows);
    },
  );

  const MOVERS_DESCRIPTION = `The products whose stock changed the most since the midnight (UTC) that starts the first of the last \`days\` days: \`unitsIn\` added, \`unitsOut\` taken away, \`moved\` both together; the most moved first, then by name. Up to \`limit\` products (10 unless told). ${COSTLY_WORK_NOTE}`;

  app.get(
    '/reports/top-movers',
    {
      ...options('read'),
      schema: {
        ...productDocs,
        operationId: 'getTopMovers',
        summary: 'The products that moved the most in the last 30, 90 or 365 days',
        description: MOVERS_DESCRIPTION,
        querystring: topMoversQuerySchema,
        response: { 200: topMoversSchema, ...errorResponses(400) },
      },
    },
    async (request): Promise<TopMovers> => {
      const catalogue = currentCatalogue(request);
      const { days, limit } = request.query;
      const rows = await queries.topMovers(catalogue.id, app.clock.now(), days, limit);
      return { products: rows.map((row) => ({ ...row, moved: row.unitsIn + row.unitsOut })) };
    },
  );

  app.get(
    '/reports/top-movers.csv',
    {
      ...options('export'),
      schema: {
        ...productDocs,
        operationId: 'exportTopMoversCsv',
        summary: 'The top movers as a CSV file',
        description: `${MOVERS_DESCRIPTION} Columns: Product, Units in, Units out, Units moved. ${CSV_NOTE}`,
        querystring: topMoversQuerySchema,
        response: { ...csvResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { days, limit } = request.query;
      const rows = await queries.topMovers(catalogue.id, app.clock.now(), days, limit);
      const columns = [
        { key: 'name', header: 'Product' },
        { key: 'unitsIn', header: 'Units in' },
        { key: 'unitsOut', header: 'Units out' },
        { key: 'moved', header: 'Units moved' },
      ];
      const records = rows.map((row) => ({ ...row, moved: row.unitsIn + row.unitsOut }));
      return sendProductCsv(
        queries,
        request,
        reply,
        `top-movers-${days}-days.csv`,
        columns,
        records,
      );
    },
  );

  const DEAD_DESCRIPTION = `The products with stock that have had no movement in ${DEAD_STOCK_DAYS} days, nor were created in them: \`value\` is price × stock in dollars, \`lastMovedAt\` their last movement (or their creation). The longest still first. ${COSTLY_WORK_NOTE}`;
  const deadCutoff = () => app.clock.now() - DEAD_STOCK_DAYS * DAY_MS;

  app.get(
    '/reports/dead-stock',
    {
      ...options('read'),
      schema: {
        ...productDocs,
        operationId: 'getDeadStock',
        summary: `Products with stock and no movement in ${DEAD_STOCK_DAYS} days`,
        description: `${DEAD_DESCRIPTION} Up to \`limit\` products (100 unless told); the CSV file takes the same \`limit\`, and holds them all without one.`,
        querystring: reportRowsQuerySchema,
        response: { 200: deadStockSchema, ...errorResponses(400) },
      },
    },
    async (request): Promise<DeadStock> => {
      const catalogue = currentCatalogue(request);
      const rows = await queries.deadStock(catalogue.id, deadCutoff(), request.query.limit);
      return {
        products: rows.map((row) => ({
          id: row.id,
          name: row.name,
          stock: row.stock,
          value: moneyTotal(BigInt(row.priceCents) * BigInt(row.stock)),
          lastMovedAt: isoTime(row.lastMovedAt),
        })),
      };
    },
  );

  app.get(
    '/reports/dead-stock.csv',
    {
      ...options('export'),
      schema: {
        ...productDocs,
        operationId: 'exportDeadStockCsv',
        summary: `Products with no movement in ${DEAD_STOCK_DAYS} days as a CSV file`,
        description: `${DEAD_DESCRIPTION} Up to \`limit\` products (checked as the JSON's), all of them without one. Columns: Product, Stock, Value, Last moved. ${CSV_NOTE}`,
        querystring: reportRowsCsvQuerySchema,
        response: { ...csvResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const rows = await queries.deadStock(catalogue.id, deadCutoff(), request.query.limit);
      const columns = [
        { key: 'name', header: 'Product' },
        { key: 'stock', header: 'Stock' },
        { key: 'value', header: 'Value' },
        { key: 'lastMovedAt', header: 'Last moved' },
      ];
      const records = rows.map((row) => ({
        id: row.id,
        name: row.name,
        stock: row.stock,
        value: dollars(BigInt(row.priceCents) * BigInt(row.stock)),
        lastMovedAt: isoTime(row.lastMovedAt),
      }));
      return sendProductCsv(queries, request, reply, 'dead-stock.csv', columns, records);
    },
  );

  const REORDER_DESCRIPTION = `The products whose stock is at or below their reorder point (their own, or else the catalogue's): \`onOrder\` is what purchase orders placed and not yet received bring; \`toOrder\` is what takes the stock past the point (point − stock + 1), less what is on order. The furthest below first. ${COSTLY_WORK_NOTE}`;

  app.get(
    '/reports/to-reorder',
    {
      ...options('read'),
      schema: {
        ...productDocs,
        operationId: 'getToReorder',
        summary: 'Products at or below their reorder point, and how many to order',
        description: `${REORDER_DESCRIPTION} Up to \`limit\` products (100 unless told); the CSV file takes the same \`limit\`, and holds them all without one.`,
        querystring: reportRowsQuerySchema,
        response: { 200: toReorderSchema, ...errorResponses(400) },
      },
    },
    async (request): Promise<ToReorder> => {
      const catalogue = currentCatalogue(request);
      const rows = await queries.toReorder(catalogue.id, request.query.limit);
      const onOrder = await queries.onOrderOf(
        catalogue.id,
        rows.map((row) => row.id),
      );
      return {
        products: rows.map((row) => {
          const due = { ...row, onOrder: onOrder.get(row.id) ?? 0 };
          return { ...due, toOrder: toOrder(due) };
        }),
      };
    },
  );

  app.get(
    '/reports/to-reorder.csv',
    {
      ...options('export'),
      schema: {
        ...productDocs,
        operationId: 'exportToReorderCsv',
        summary: 'Products to reorder as a CSV file',
        description: `${REORDER_DESCRIPTION} Up to \`limit\` products (checked as the JSON's), all of them without one. Columns: Product, Stock, Reorder point, On order, To order. ${CSV_NOTE}`,
        querystring: reportRowsCsvQuerySchema,
        response: { ...csvResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const rows = await queries.toReorder(catalogue.id, request.query.limit);
      const onOrder = await queries.onOrderOf(
        catalogue.id,
        rows.map((row) => row.id),
      );
      const columns = [
        { key: 'name', header: 'Product' },
        { key: 'stock', header: 'Stock' },
        { key: 'reorderPoint', header: 'Reorder point' },
        { key: 'onOrder', header: 'On order' },
        { key: 'toOrder', header: 'To order' },
      ];
      const records = rows.map((row) => {
        const due = { ...row, onOrder: onOrder.get(row.id) ?? 0 };
        return { ...due, toOrder: toOrder(due) };
      });
      return sendProductCsv(queries, request, reply, 'to-reorder.csv', columns, records);
    },
  );
};
