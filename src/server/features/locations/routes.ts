import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema } from '../../../shared/schemas/common.js';
import {
  L,
  LOCATION_DEPTH_MAX,
  LOCATION_NAME_MAX,
  LOCATIONS_MAX,
  locationCreateSchema,
  locationParamsSchema,
  locationResponseSchema,
  locationSavedSchema,
  locationsResponseSchema,
  locationUpdateSchema,
  type Location,
} from '../../../shared/schemas/locations/locations.js';
import { errorResponses } from '../../http/route-options.js';
import { actionConfig, currentCatalogue } from '../catalogues/index.js';
import { sendCatalogueWrite } from '../writes/index.js';
import { locationLabelRoutes } from './label-routes.js';
import { named } from '../../http/plugin-name.js';

const NAME_RULE = `\`name\`: 1 to ${LOCATION_NAME_MAX} characters, unique among the location's siblings whatever the case (else 409 \`${L.nameTaken}\`), never holding \` / \`, starting with \`/ \` or ending with \` /\` (400: the names of a path are joined with \` / \`).`;
const CODE_RULE = `\`code\`: up to 64 printable ASCII characters, unique in the catalogue whatever the case (409 \`${L.codeTaken}\`) and never a product's SKU or barcode (409 \`${L.codeIsProduct}\`).`;
const TREE_RULE = `\`parentId\`: a location of the catalogue (404 \`${L.parentNotFound}\`), or null for the top; at most ${LOCATION_DEPTH_MAX} levels deep (409 \`${L.tooDeep}\`).`;

/**
 * A location as its activity entries name it: what it was called and where, when it changed (the
 * entry stays when the location goes).
 */
const entryData = ({ id, name, path, code }: Location) => ({ location: { id, name, path, code } });

/**
 * A catalogue's locations, at `/api/locations` for the caller's personal catalogue and at
 * `/api/catalogues/{catalogueId}/locations` for any: every member reads them, editors and above
 * manage them.
 */
export const locationRoutes = named('location-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { locations } = app;
  const tags = ['locations'];

  app.get(
    '/',
    {
      ...actionConfig(app, 'read'),
      schema: {
        operationId: 'listLocations',
        tags,
        summary: "The catalogue's locations",
        description: `Every location (at most ${LOCATIONS_MAX.toLocaleString('en-US')}), in tree order: each parent before its children, siblings by name. \`units\` is what a location holds itself; the default location holds the stock that has no other.`,
        response: { 200: locationsResponseSchema },
      },
    },
    async (request) => ({ locations: await locations.list(currentCatalogue(request).id) }),
  );

  app.post(
    '/',
    {
      ...actionConfig(app, 'manageLocations'),
      schema: {
        operationId: 'createLocation',
        tags,
        summary: 'Add a location',
        description: `${NAME_RULE} ${TREE_RULE} ${CODE_RULE} Without a code, one is made: \`L-\` and six characters. At most ${LOCATIONS_MAX.toLocaleString('en-US')} a catalogue (409 \`${L.tooMany}\`).`,
        body: locationCreateSchema,
        response: { 201: locationSavedSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) =>
      sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const location = await locations.create(w, request.body);
        return {
          answer: { status: 201, body: { message: L.created, location } },
          activity: { kind: 'location.created', details: { data: entryData(location) } },
        };
      }),
  );

  await app.register(locationLabelRoutes);

  app.get(
    '/:locationId',
    {
      ...actionConfig(app, 'read'),
      schema: {
        operationId: 'getLocation',
        tags,
        summary: 'One location',
        description: `A location of another catalogue: 404 \`${L.notFound}\`.`,
        params: locationParamsSchema,
        response: { 200: locationResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      location: await locations.get(currentCatalogue(request).id, request.params.locationId),
    }),
  );

  app.patch(
    '/:locationId',
    {
      ...actionConfig(app, 'manageLocations'),
      schema: {
        operationId: 'updateLocation',
        tags,
        summary: 'Rename, move or recode a location',
        description: `Any of \`name\`, \`parentId\`, \`code\`. ${NAME_RULE} ${TREE_RULE} A location never goes under itself or one of its sub-locations (409 \`${L.underItself}\`); its sub-locations move with it. ${CODE_RULE}`,
        params: locationParamsSchema,
        body: locationUpdateSchema,
        response: { 200: locationSavedSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) =>
      sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const { locationId } = request.params;
        const { location, changes } = await locations.update(w, locationId, request.body);
        const answer = { status: 200, body: { message: L.updated, location } };
        if (Object.keys(changes).length === 0) return { answer, unchanged: true };
        const data = { ...entryData(location), changes };
        return { answer, activity: { kind: 'location.updated', details: { data } } };
      }),
  );

  app.delete(
    '/:locationId',
    {
      ...actionConfig(app, 'manageLocations'),
      schema: {
        operationId: 'deleteLocation',
        tags,
        summary: 'Delete a location',
        description: `Only an empty one: a location with sub-locations (409 \`${L.hasChildren}\`) or stock (409 \`${L.holdsStock}\`) stays, and so does the default location (409 \`${L.isDefault}\`).`,
        params: locationParamsSchema,
        response: { 200: messageSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) =>
      sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const location = await locations.remove(w, request.params.locationId);
        return {
          answer: { status: 200, body: { message: L.deleted } },
          activity: { kind: 'location.deleted', details: { data: entryData(location) } },
        };
      }),
  );
});
