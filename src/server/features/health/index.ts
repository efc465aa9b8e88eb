/** The health feature's plugin, what the app registers of it. */
export { healthRoutes } from './routes.js';
