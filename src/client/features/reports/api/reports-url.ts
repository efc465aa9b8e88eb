import type { ReportPeriod } from '@shared/schemas/reports.js';
import { catalogueKey, type CatalogueRef } from '@/lib/catalogue-ref.js';

/** The reports the API gives, each also as a CSV file at `{name}.csv`. */
export type ReportName = 'stock-over-time' | 'top-movers' | 'dead-stock' | 'to-reorder';

/** A report's path: the personal catalogue's under `/products`, a shared one's under its id. */
export const reportsUrl = (catalogue: CatalogueRef, name: string) =>
  `${catalogue ? `/catalogues/${encodeURIComponent(catalogue)}` : '/products'}/reports/${name}`;

/**
 * A report's query key: under the catalogue's products, so that whatever refreshes its list (a
 * change here or a live event from elsewhere) refreshes its reports too.
 */
export const reportKey = (catalogue: CatalogueRef, name: ReportName, params: object = {}) =>
  ['products', catalogueKey(catalogue), 'reports', name, params] as const;

/** The period the reports screen opens on, in days. */
export const FIRST_REPORT_PERIOD = 30 satisfies ReportPeriod;
