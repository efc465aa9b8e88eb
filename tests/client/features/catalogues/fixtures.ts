import { http, HttpResponse } from 'msw';
import type { CatalogueRole } from '@shared/catalogue-roles.js';
import type { Catalogue, Member } from '@shared/schemas/catalogues.js';
import { server } from '../../support/server.js';

export const USER = { id: 'u1', name: 'Ada', email: 'ada@example.com' };

export const catalogue = (overrides: Partial<Catalogue> = {}): Catalogue => ({
  id: 'c1',
  name: 'Team shop',
  personal: false,
  role: 'editor',
  members: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  reorderPoint: 10,
  ...overrides,
});

const personal = catalogue({
  id: USER.id,
  name: "Ada's catalogue",
  personal: true,
  role: 'owner',
  members: 1,
});

/** GET /api/catalogues: the personal catalogue, then a shared one with this role. */
export const answerCatalogues = (role: CatalogueRole = 'editor', more: Catalogue[] = []) =>
  server.use(
    http.get('/api/catalogues', () =>
      HttpResponse.json({ catalogues: [personal, catalogue({ role }), ...more] }),
    ),
  );

export const member = (
  id: string,
  name: string,
  role: CatalogueRole,
  email = `${name.toLowerCase()}@example.com`,
): Member => ({ user: { id, name, email }, role, joinedAt: '2026-01-02T00:00:00.000Z' });
