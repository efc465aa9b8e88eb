/** The dev-mailbox feature's plugin, what the app registers of it. */
export { devMailboxRoutes } from './routes.js';
