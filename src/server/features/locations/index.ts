/** A catalogue's locations: what the app registers. */
export { locationsPlugin } from './plugin.js';
export { locationRoutes } from './routes.js';
