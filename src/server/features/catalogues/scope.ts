import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import {
  CATALOGUE_ACTIONS,
  can,
  roleCannot,
  type CatalogueAction,
  type CatalogueRole,
} from '../../../shared/catalogue-roles.js';
import { catalogueParamsSchema } from '../../../shared/schemas/catalogues.js';
import type { ActivitySource } from '../../../shared/activity.js';
import { activitySource } from '../../http/activity-source.js';
import { currentSession } from '../../http/authenticate.js';
import { errorResponses } from '../../http/route-options.js';
import { isOperation } from '../../http/route-responses.js';
import type { DB } from '../../infra/db/handle.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { CATALOGUE_NOT_FOUND, findMembership, lockMembership } from './membership.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a route of a catalogue does, in the terms of the role rule: a member whose role may not
     * is refused with 403 before the body is read. Every route of a catalogue scope declares one
     * (a route without one fails at start-up).
     */
    catalogueAction?: CatalogueAction;
  }
  interface FastifyRequest {
    catalogue: CurrentCatalogue | null;
  }
}

/** The catalogue a request addresses, as its scope's hook found it. */
export interface CurrentCatalogue {
  id: string;
  /** The caller's role in it. */
  role: CatalogueRole;
  personal: boolean;
  /** Its version when the request began: the key of its cached reads. */
  version: number;
  /** Who is asking: the actor of whatever the request changes. */
  actorId: string;
  /** Where the request was made (the `Stockroom-Source` header): what its activity entries say. */
  source: ActivitySource;
  /**
   * Runs first in a write's transaction: fails it when the caller stopped being a member, or lost
   * the right, after the request's check. On PostgreSQL the membership row stays locked until the
   * commit, so a removal waits for a write that began before it (and a write after it fails):
   * no write lands once a removal has committed.
   */
  confirm(trx: DB): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The catalogue of a request in a catalogue scope. */
export function currentCatalogue(request: FastifyRequest): CurrentCatalogue {
  if (!request.catalogue) throw new Error('Not a route of a catalogue scope');
  return request.catalogue;
}

/** The 403 of a member whose role does not allow the action. */
const refused = (role: CatalogueRole, action: CatalogueAction) =>
  new HttpError(403, roleCannot(role, action));

/** The action a route declared; start-up fails for a route of a catalogue scope without one. */
function declaredAction(route: RouteOptions): CatalogueAction {
  const action = route.config?.catalogueAction;
  if (action === undefined || !(action in CATALOGUE_ACTIONS)) {
    throw new Error(
      `${String(route.method)} ${route.url} is in a catalogue scope but declares no catalogueAction`,
    );
  }
  return action;
}

/** Every route of a scope must say what it does; shared catalogues' also document their refusals. */
function requireActions(scope: FastifyInstance, shared: boolean) {
  scope.addHook('onRoute', (route) => {
    const action = declaredAction(route);
    if (!shared || !isOperation(route)) return;
    // A copy: routes registered twice over one options object (with and without a trailing
    // slash, HEAD beside GET) must not gain these twice.
    const schema = { ...route.schema } as {
      params?: unknown;
      response?: Record<string, unknown>;
      description?: string;
    };
    const own = schema.params instanceof z.ZodObject ? schema.params.shape : {};
    schema.params = catalogueParamsSchema.extend(own);
    schema.response = { ...errorResponses(403, 404), ...schema.response };
    const { roles, text } = CATALOGUE_ACTIONS[action];
    const needs = `Needs a role that may ${text} (${roles.join(', ')}); to anyone who is not a member, the catalogue does not exist (404).`;
    schema.description = schema.description ? `${schema.description} ${needs}` : needs;
    route.schema = schema;
  });
}

/**
 * The caller's own catalogue, at `/api/products…`: its id is the user's and the caller is its
 * owner, so nothing is read to know it (the session carries its version).
 */
export function personalCatalogueScope(scope: FastifyInstance) {
  scope.decorateRequest('catalogue', null);
  requireActions(scope, false);
  scope.addHook('preParsing', async (request, _reply, payload) => {
    const { user, catalogueVersion } = currentSession(request);
    request.catalogue = {
      id: user.id,
      role: 'owner',
      personal: true,
      version: catalogueVersion,
      actorId: user.id,
      source: activitySource(request),
      confirm: async () => {},
    };
    return payload;
  });
}

/**
 * Any catalogue the caller belongs to, at a prefix with `:catalogueId`. One hook reads the
 * caller's membership from the database on every request (a removal takes effect on the next
 * one, on every instance: nothing is cached), answers 404 for a catalogue that does not exist or
 * that the caller is not a member of, and 403 for a role that may not take the route's action,
 * before the body is read. Routes read the catalogue with `currentCatalogue(request)`.
 */
export function catalogueScope(scope: FastifyInstance) {
  scope.decorateRequest('catalogue', null);
  requireActions(scope, true);
  const { db, database } = scope;
  scope.addHook('preParsing', async (request, _reply, payload) => {
    const { user } = currentSession(request);
    const { catalogueId } = request.params as { catalogueId?: string };
    if (!catalogueId || !UUID.test(catalogueId)) throw notFound(CATALOGUE_NOT_FOUND);
    const source = activitySource(request);
    const found = await findMembership(db, catalogueId, user.id);
    if (!found) throw notFound(CATALOGUE_NOT_FOUND);
    const action = request.routeOptions.config.catalogueAction!;
    if (!can(found.role, action)) throw refused(found.role, action);
    request.catalogue = {
      id: catalogueId,
      role: found.role,
      personal: found.personal,
      version: found.version,
      actorId: user.id,
      source,
      confirm: async (trx) => {
        const role = await lockMembership(trx, database.dialect, catalogueId, user.id);
        if (!role) throw notFound(CATALOGUE_NOT_FOUND);
        if (!can(role, action)) throw refused(role, action);
      },
    };
    return payload;
  });
}

/**
 * A scope that registers the personal catalogue's routes again inside a catalogue scope: each
 * operation gets an id of its own (`listProducts` becomes `listProductsInCatalogue`), since an
 * OpenAPI document names every operation once.
 */
export function mirrorOfPersonalRoutes(scope: FastifyInstance) {
  scope.addHook('onRoute', (route) => {
    const schema = route.schema as { operationId?: string } | undefined;
    if (schema?.operationId) {
      route.schema = { ...schema, operationId: `${schema.operationId}InCatalogue` };
    }
  });
}
