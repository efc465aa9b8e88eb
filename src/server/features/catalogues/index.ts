export { CATALOGUE_NOT_FOUND } from './membership.js';
export { CatalogueRepository } from './repository.js';
export { actionConfig } from './route-options.js';
export { catalogueRoutes, cataloguesRoutes } from './routes.js';
/**
 * What other parts of the server may use of the catalogues feature: the scopes that routes of a
 * catalogue are registered in, and the catalogue a request addresses.
 */
export {
  catalogueScope,
  currentCatalogue,
  mirrorOfPersonalRoutes,
  personalCatalogueScope,
  type CurrentCatalogue,
} from './scope.js';
