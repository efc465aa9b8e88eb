/**
 * What other parts of the server may use of the products feature; the rest of this folder is its
 * own (eslint.config.js fences it off).
 */
export type { PictureChange } from './changes.js';
export { codeKeys, givenCodes } from './codes.js';
export { csvColumnOf, MATCH_COLUMNS, type MatchColumn } from './match-columns.js';
export { productsPlugin } from './plugin.js';
export type { ExportRow, ImportedUpdate, ProductChanges, ProductRow } from './rows.js';
// The data access of writes, for the features that write products (in the write pipeline).
export { deleteProducts } from './delete-writes.js';
export { loadProducts, stageProducts, type StagedProducts } from './import-writes.js';
export { dropImport, publishImport, stageImport, type StagedImport } from './staged-imports.js';
export { applyStagedUpdates } from './import-applies.js';
export { moveStock, restoreDeleted, revertEdit } from './restore.js';
export { ProductRepository } from './repository.js';
export type { ProductsContext } from './routes/context.js';
export {
  bodyCheckedInHandler,
  partError,
  readingMultipart,
  multipartLimits,
} from './routes/form.js';
export { productRoutes } from './routes/index.js';
export { stockTransferRoutes } from './routes/transfers.js';
export { transferStock } from './transfers.js';
export { setCountedLevels, type CountedLevel } from './stock-counts.js';
// A count's posting and its undo: many quantities changed at once.
export { applyStockDeltas } from './stock-deltas.js';
export { movingAverageCents, receiveStock } from './receipts.js';
export { productDocs } from './routes/route-options.js';
// For other features: reports and new stock writes use the rule.
export {
  /** @public */
  toReorderIn,
  toReorderRule,
  /** @public */
  trackReorderCrossings,
} from './reorder.js';
export { moneyTotal } from './exact-sum.js';
export { keptTotals } from './totals.js';
