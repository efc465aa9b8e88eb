/** Suppliers and purchase orders: what the app registers. */
export { purchasingPlugin } from './plugin.js';
export { productSupplierRoutes } from './product-supplier-routes.js';
export { purchasingRoutes } from './routes.js';
