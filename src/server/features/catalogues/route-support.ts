import type { FastifyInstance } from 'fastify';
import {
  can,
  roleCannot,
  type CatalogueAction,
  type CatalogueRole,
} from '../../../shared/catalogue-roles.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { CATALOGUE_NOT_FOUND } from './membership.js';
import { CatalogueRepository } from './repository.js';

/** What the catalogue routes answer, word for word. */
const CATALOGUE_MESSAGES = {
  created: 'Catalogue created',
  renamed: 'Catalogue renamed',
  updated: 'Catalogue updated',
  deleted: 'Catalogue deleted',
  personalNotDeletable: 'Your personal catalogue cannot be deleted',
  handedOver: 'Ownership handed over',
  onlyToAdmin: 'Ownership can only be handed to an admin',
  personalNotTransferable: 'Your personal catalogue cannot be handed over',
  roleChanged: 'Role changed',
  ownerRoleFixed: "The owner's role cannot be changed",
  memberNotFound: 'Member not found',
  memberRemoved: 'Member removed',
  left: 'You left the catalogue',
  ownerStays: 'The owner cannot leave or be removed; hand over ownership first',
} as const;
export const C = CATALOGUE_MESSAGES;

export const docs = { tags: ['catalogues'] };
export const conflict = (message: string) => new HttpError(409, message);

/**
 * The role a write needs, checked again inside its transaction with the memberships locked
 * (repository.locked): a member removed or demoted since the request's check changes nothing.
 */
export function allowed(role: CatalogueRole | undefined, action: CatalogueAction): CatalogueRole {
  if (!role) throw notFound(CATALOGUE_NOT_FOUND);
  if (!can(role, action)) throw new HttpError(403, roleCannot(role, action));
  return role;
}

export const repositoryOf = (fastify: FastifyInstance) =>
  new CatalogueRepository(fastify.db, fastify.database.dialect);
