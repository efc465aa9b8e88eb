/**
 * The live event stream of each catalogue (`GET /api/events`): what other features use of it.
 */
export { recordLiveEvent } from './record.js';
