/**
 * The one way to write to a catalogue (docs/architecture.md, "The write pipeline"): products,
 * imports, undos, and whatever else changes a catalogue's contents.
 */
export {
  bumpCatalogueVersion,
  catalogueWrite,
  keyedRequest,
  sendCatalogueWrite,
  writeCatalogue,
  type CatalogueWrite,
  type LiveEvent,
  type Stage,
  type WriteOutcome,
  type WriteTarget,
} from './pipeline.js';
