import { z } from 'zod';
import { ASSIGNABLE_ROLES, CATALOGUE_ROLES } from '../catalogue-roles.js';
import { NAME_MAX } from '../constants.js';
import { ANSWER_LIMITS, emailSchema, messageSchema, requiredText } from './common.js';
import { REORDER_MESSAGES, REORDER_POINT_MAX } from '../reorder.js';
import { int32, timestamp, uuid } from './products.js';

/** A catalogue's name: like a person's, required and at most NAME_MAX characters. */
export const CATALOGUE_NAME_MAX = NAME_MAX;
/** Invitations one catalogue may send in 24 hours; the next one is refused with 429. */
export const INVITATIONS_PER_DAY = 20;
/** How long an invitation can be accepted. */
export const INVITATION_DAYS = 7;

export const catalogueNameSchema = requiredText('Catalogue name is required').max(
  CATALOGUE_NAME_MAX,
  { error: `Catalogue name must be less than ${CATALOGUE_NAME_MAX} characters` },
);

const roleSchema = z.enum(CATALOGUE_ROLES);
const assignableRoleSchema = z.enum(ASSIGNABLE_ROLES, {
  error: `Role must be one of: ${ASSIGNABLE_ROLES.join(', ')}`,
});
const text = (maxLength: number) => z.string().meta({ maxLength });
const isoTime = timestamp;
/**
 * The longest list an answer documents: catalogues of one user, members of one catalogue,
 * invitations. Nothing bounds them lower; no real account comes near.
 */
const LIST_MAX = 10_000;
const list = <T extends z.ZodType>(item: T) => z.array(item).meta({ maxItems: LIST_MAX });

/**
 * A catalogue as its member sees it. `personal` is the account's own catalogue, the one the
 * `/api/products…` routes address; its id is the owner's user id. `role` is the caller's.
 */
export const catalogueSchema = z.object({
  id: uuid,
  name: text(CATALOGUE_NAME_MAX),
  personal: z.boolean(),
  role: roleSchema,
  members: z.number().int().min(1).meta(int32(2_147_483_647, 1)),
  createdAt: isoTime,
  /** The reorder point of its products that set none of their own. */
  // Always sent; optional so that an answer from before it existed still reads.
  reorderPoint: z.number().int().meta(int32(REORDER_POINT_MAX)).optional(),
});
export type Catalogue = z.infer<typeof catalogueSchema>;

export const catalogueParamsSchema = z.object({ catalogueId: uuid });
export const memberParamsSchema = catalogueParamsSchema.extend({ userId: uuid });
export const invitationParamsSchema = z.object({ invitationId: uuid });
export const catalogueInvitationParamsSchema = catalogueParamsSchema.extend({
  invitationId: uuid,
});

/** `GET /api/catalogues`: the caller's catalogues, the personal one first, then by name. */
export const cataloguesResponseSchema = z.object({ catalogues: list(catalogueSchema) });
/** `POST /api/catalogues` and `PATCH /api/catalogues/{catalogueId}`. */
export const catalogueBodySchema = z.object({ name: catalogueNameSchema });
/**
 * `PATCH /api/catalogues/{catalogueId}`: a new name, a new default reorder point, or both; at least
 * one of them.
 */
export const catalogueReorderPointSchema = z
  .number({ error: REORDER_MESSAGES.reorderPointInvalid })
  .int({ error: REORDER_MESSAGES.reorderPointInvalid })
  .min(0, { error: REORDER_MESSAGES.reorderPointInvalid })
  .max(REORDER_POINT_MAX, { error: REORDER_MESSAGES.reorderPointInvalid })
  .meta({ format: 'int32' });
export const catalogueUpdateSchema = z
  .object({
    name: catalogueNameSchema.optional(),
    reorderPoint: catalogueReorderPointSchema.optional(),
  })
  .refine((body) => body.name !== undefined || body.reorderPoint !== undefined, {
    error: 'Send a name, a reorderPoint, or both',
  });
/** The settings' form of the default reorder point: a whole number as typed. */
export const reorderPointFormSchema = z.object({
  reorderPoint: z.string().superRefine((value, ctx) => {
    const text = value.trim();
    const point = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(Number.isInteger(point) && point <= REORDER_POINT_MAX)) {
      ctx.addIssue({ code: 'custom', message: REORDER_MESSAGES.reorderPointInvalid });
    }
  }),
});
export const catalogueResponseSchema = z.object({ catalogue: catalogueSchema });
export const catalogueMessageResponseSchema = messageSchema.extend({ catalogue: catalogueSchema });

/** A person as other members see them. */
const personSchema = z.object({
  id: uuid,
  name: text(ANSWER_LIMITS.message),
  email: text(254),
});

export const memberSchema = z.object({
  user: personSchema,
  role: roleSchema,
  joinedAt: isoTime,
});
export type Member = z.infer<typeof memberSchema>;

/** `GET /api/catalogues/{catalogueId}/members`: every member, the owner first, then by name. */
export const membersResponseSchema = z.object({ members: list(memberSchema) });
/** `PATCH /api/catalogues/{catalogueId}/members/{userId}`: another role (never owner). */
export const memberRoleBodySchema = z.object({ role: assignableRoleSchema });
export const memberResponseSchema = messageSchema.extend({ member: memberSchema });
/** `POST /api/catalogues/{catalogueId}/transfer`: hand ownership to an admin; the old owner becomes an admin. */
export const transferBodySchema = z.object({ userId: uuid });

/** An invitation as the catalogue's admins see it. */
export const invitationSchema = z.object({
  id: uuid,
  email: text(254),
  role: assignableRoleSchema,
  invitedBy: z.object({ id: uuid, name: text(ANSWER_LIMITS.message) }),
  createdAt: isoTime,
  expiresAt: isoTime,
});
export type Invitation = z.infer<typeof invitationSchema>;

/** `POST /api/catalogues/{catalogueId}/invitations`. */
export const invitationBodySchema = z.object({ email: emailSchema, role: assignableRoleSchema });
export const invitationResponseSchema = messageSchema.extend({ invitation: invitationSchema });
/** `GET /api/catalogues/{catalogueId}/invitations`: pending, unexpired invitations. */
export const invitationsResponseSchema = z.object({ invitations: list(invitationSchema) });

/** An invitation as its invitee sees it (`GET /api/invitations`). */
export const receivedInvitationSchema = z.object({
  id: uuid,
  catalogue: z.object({ id: uuid, name: text(CATALOGUE_NAME_MAX) }),
  role: assignableRoleSchema,
  invitedBy: z.object({ name: text(ANSWER_LIMITS.message) }),
  expiresAt: isoTime,
});
export type ReceivedInvitation = z.infer<typeof receivedInvitationSchema>;
export const receivedInvitationsResponseSchema = z.object({
  invitations: list(receivedInvitationSchema),
});
