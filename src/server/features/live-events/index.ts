/**
 * The live event stream of each catalogue (`GET /api/events`): what other features and the app
 * use of it.
 */
export { liveEventsPlugin } from './plugin.js';
export {
  recordCatalogueDeleted,
  recordCatalogueUpdated,
  recordLiveEvent,
  recordMemberGone,
  recordMemberJoined,
} from './record.js';
export { liveEventRoutes } from './routes.js';
