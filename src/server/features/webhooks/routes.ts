import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { catalogueParamsSchema } from '../../../shared/schemas/catalogues.js';
import { messageSchema } from '../../../shared/schemas/common.js';
import {
  DELIVERIES_SHOWN,
  W,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
  deliveriesResponseSchema,
  deliveryResponseSchema,
  webhookBodySchema,
  webhookCreatedSchema,
  webhookParamsSchema,
  webhookPatchSchema,
  webhookResponseSchema,
  webhookSavedSchema,
  webhookSecretSchema,
  webhooksResponseSchema,
} from '../../../shared/schemas/webhooks/webhooks.js';
import { errorResponses } from '../../http/route-options.js';
import { actionConfig, currentCatalogue } from '../catalogues/index.js';
import { named } from '../../http/plugin-name.js';

const URL_RULE = `URLs must be https (400 \`${W.httpsOnly}\`) and must not resolve to a loopback, private, link-local, unspecified or multicast address (400 \`${W.privateAddress}\`), unless the server runs with WEBHOOKS_ALLOW_PRIVATE_NETWORK=true.`;
const EVENTS_RULE = `\`events\`: a non-empty list among ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}.`;

/**
 * `/api/catalogues/{catalogueId}/webhooks…`: the endpoints a catalogue's owner and admins
 * register to hear of its changes. Registered in the catalogue's scope (the personal catalogue
 * is there too, under its owner's id), which answers 404 to non-members and 403 to other roles.
 */
export const webhookRoutes = named('webhook-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { webhooks } = app;
  const { config } = actionConfig(app, 'manageWebhooks');
  const tags = ['webhooks'];

  app.get(
    '/webhooks',
    {
      config,
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: "The catalogue's webhook endpoints",
        description: 'Oldest first, each with the outcome of its newest attempt; never a secret.',
        params: catalogueParamsSchema,
        response: { 200: webhooksResponseSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({ webhooks: await webhooks.list(currentCatalogue(request).id) }),
  );

  app.post(
    '/webhooks',
    {
      config,
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Register an endpoint',
        description: `${URL_RULE} ${EVENTS_RULE} The answer carries the signing secret (\`whsec_…\`), shown this once. At most 20 per catalogue (409).`,
        params: catalogueParamsSchema,
        body: webhookBodySchema,
        response: { 201: webhookCreatedSchema, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(currentCatalogue(request), request.body);
      return reply.code(201).send({ message: W.added, ...created });
    },
  );

  app.get(
    '/webhooks/:webhookId',
    {
      config,
      schema: {
        operationId: 'getWebhook',
        tags,
        summary: 'One endpoint',
        description: `An endpoint of another catalogue: 404 \`${W.notFound}\`.`,
        params: webhookParamsSchema,
        response: { 200: webhookResponseSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({
      webhook: await webhooks.get(currentCatalogue(request).id, request.params.webhookId),
    }),
  );

  app.patch(
    '/webhooks/:webhookId',
    {
      config,
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Change an endpoint',
        description: `Any of \`url\`, \`events\`, \`enabled\`. ${URL_RULE} ${EVENTS_RULE} Enabling an endpoint the server disabled makes it called again.`,
        params: webhookParamsSchema,
        body: webhookPatchSchema,
        response: { 200: webhookSavedSchema, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => ({
      message: W.updated,
      webhook: await webhooks.update(
        currentCatalogue(request),
        request.params.webhookId,
        request.body,
      ),
    }),
  );

  app.delete(
    '/webhooks/:webhookId',
    {
      config,
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete an endpoint',
        description: 'Its pending deliveries go with it.',
        params: webhookParamsSchema,
        response: { 200: messageSchema, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      await webhooks.remove(currentCatalogue(request), request.params.webhookId);
      return { message: W.deleted };
    },
  );

  app.post(
    '/webhooks/:webhookId/test',
    {
      config,
      schema: {
        operationId: 'testWebhook',
        tags,
        summary: 'Send a test event now',
        description: `Sends a \`${WEBHOOK_TEST_EVENT}\` event once, signed like any other, and answers with the delivery as it ended (\`delivered\` on a 2xx, else \`failed\` with the status or the error). It is not retried.`,
        params: webhookParamsSchema,
        response: { 200: deliveryResponseSchema, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => ({
      delivery: await webhooks.test(currentCatalogue(request), request.params.webhookId),
    }),
  );

  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      config,
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: "An endpoint's newest deliveries",
        description: `The newest ${DELIVERIES_SHOWN}, with their status, attempts and next attempt.`,
        params: webhookParamsSchema,
        response: { 200: deliveriesResponseSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({
      deliveries: await webhooks.deliveries(currentCatalogue(request).id, request.params.webhookId),
    }),
  );

  app.post(
    '/webhooks/:webhookId/secret',
    {
      config,
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Replace the signing secret',
        description:
          'The answer carries the new secret, shown this once; the old one signs nothing more.',
        params: webhookParamsSchema,
        response: { 200: webhookSecretSchema, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => ({
      message: W.secretRotated,
      secret: await webhooks.rotateSecret(currentCatalogue(request), request.params.webhookId),
    }),
  );
});
