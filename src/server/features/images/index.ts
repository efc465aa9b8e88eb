/** The images feature's plugin, what the app registers of it. */
export { imageRoutes } from './routes.js';
