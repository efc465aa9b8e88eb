/** What other parts of the server may use of the low-stock digest. */
export { lowStockDigestPlugin } from './plugin.js';
