import type { FastifyInstance } from 'fastify';
import { registerPublic } from '../authenticate.js';

/**
 * The OpenAPI document and its UI (config.apiDocs: off in production unless API_DOCS=true). The
 * UI's plugin is only loaded when it is served.
 */
export async function serveApiDocs(app: FastifyInstance) {
  if (!app.config.apiDocs) return;
  await registerPublic(app, async () => {
    const { default: swaggerUi } = await import('@fastify/swagger-ui');
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
}
