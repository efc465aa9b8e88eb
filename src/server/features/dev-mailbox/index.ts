/** The dev-mailbox feature's plugin, what the app registers of it, and who may see it. */
export { devMailboxRoutes } from './routes.js';
export { devMailboxAnswers, keepsDevMailbox } from './access.js';
