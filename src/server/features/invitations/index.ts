/** Invitations to join a catalogue by e-mail: what the app registers. */
export { invitationsPlugin } from './plugin.js';
export { catalogueInvitationRoutes } from './routes/catalogue.js';
export { receivedInvitationRoutes } from './routes/received.js';
