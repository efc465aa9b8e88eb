/**
 * The reports' answer shapes, loaded beside their requests (lib/api-client.ts): the shared zod
 * schemas stay out of the screen's own code.
 */
const load = () => import('@shared/schemas/reports.js');

export const stockOverTimeSchema = () => load().then((m) => m.stockOverTimeSchema);
export const topMoversSchema = () => load().then((m) => m.topMoversSchema);
export const deadStockSchema = () => load().then((m) => m.deadStockSchema);
export const toReorderSchema = () => load().then((m) => m.toReorderSchema);
