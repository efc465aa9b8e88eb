import { expect } from 'vitest';
import type { Catalogue, Invitation } from '../../../src/shared/schemas/catalogues.js';
import type { TestServer } from '../support/build.js';
import type { SignedIn } from '../support/accounts.js';

/** One API call as a signed-in user (or none), its JSON parsed. */
export async function call(
  server: TestServer,
  user: SignedIn | undefined,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: object,
) {
  const res = await server.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    ...(body === undefined ? {} : { payload: body }),
  });
  let json: Record<string, unknown> = {};
  try {
    json = res.json();
  } catch {
    // not JSON
  }
  return { status: res.statusCode, headers: res.headers, text: res.body, body: json };
}

/** A shared catalogue that `owner` creates. */
export async function createCatalogue(server: TestServer, owner: SignedIn, name = 'Workshop') {
  const res = await call(server, owner, 'POST', '/api/catalogues', { name });
  expect(res.status).toBe(201);
  return res.body.catalogue as Catalogue;
}

export const invite = (
  server: TestServer,
  by: SignedIn,
  catalogueId: string,
  email: string,
  role = 'editor',
) => call(server, by, 'POST', `/api/catalogues/${catalogueId}/invitations`, { email, role });

/** Invites, failing loudly unless it was made. */
export async function invited(
  server: TestServer,
  by: SignedIn,
  catalogueId: string,
  email: string,
  role = 'editor',
): Promise<Invitation> {
  const res = await invite(server, by, catalogueId, email, role);
  expect(res.status, res.text).toBe(201);
  return res.body.invitation as Invitation;
}

export const accept = (server: TestServer, user: SignedIn, invitationId: string) =>
  call(server, user, 'POST', `/api/invitations/${invitationId}/accept`);

export const decline = (server: TestServer, user: SignedIn, invitationId: string) =>
  call(server, user, 'POST', `/api/invitations/${invitationId}/decline`);

export const received = async (server: TestServer, user: SignedIn) => {
  const res = await call(server, user, 'GET', '/api/invitations');
  expect(res.status).toBe(200);
  return res.body.invitations as { id: string; role: string; catalogue: { id: string } }[];
};

/** `owner` invites `member` to the catalogue and `member` accepts. */
export async function join(
  server: TestServer,
  owner: SignedIn,
  catalogueId: string,
  member: SignedIn,
  role = 'editor',
) {
  const invitation = await invited(server, owner, catalogueId, member.email, role);
  const res = await accept(server, member, invitation.id);
  expect(res.status, res.text).toBe(200);
}
