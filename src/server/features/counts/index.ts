/** A catalogue's stock counts: what the app registers, and the undo of a posting. */
export { countsPlugin } from './plugin.js';
export { countRoutes } from './routes.js';
export { reverseCountPosting } from './writes.js';
