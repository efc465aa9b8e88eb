/**
 * The catalogue screens' answer shapes, loaded beside their requests (lib/api-client.ts): the
 * shared zod schemas stay out of the screens' own code.
 */
const load = () => import('@shared/schemas/catalogues.js');

export const catalogueMessageSchema = () => load().then((m) => m.catalogueMessageResponseSchema);
export const membersSchema = () => load().then((m) => m.membersResponseSchema);
export const memberMessageSchema = () => load().then((m) => m.memberResponseSchema);
export const invitationsSchema = () => load().then((m) => m.invitationsResponseSchema);
export const invitationMessageSchema = () => load().then((m) => m.invitationResponseSchema);
