/**
 * What other parts of the server may use of the activity feature: recording an entry in the
 * transaction of a change, and the routes of the log and its undo.
 */
export { activityPlugin } from './plugin.js';
export type { ActivityDetails } from './record.js';
export { activityRoutes } from './routes.js';
