import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CatalogueRole } from '@shared/catalogue-roles.js';
import { CatalogueSettings } from '@/features/catalogues/components/CatalogueSettings.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { apiError, sent, server } from '../../support/server.js';
import { answerCatalogues, member, USER } from './fixtures.js';

const fire = vi.hoisted(() => vi.fn());
vi.mock('sweetalert2', () => ({ default: { fire } }));

const MEMBERS = [
  member('u0', 'Olga', 'owner'),
  member(USER.id, USER.name, 'admin', USER.email),
  member('u2', 'Grace', 'editor'),
  member('u3', 'Alan', 'admin'),
];

function answerMembers(me: CatalogueRole) {
  server.use(
    http.get('/api/catalogues/c1/members', () =>
      HttpResponse.json({
        members: MEMBERS.map((each) => (each.user.id === USER.id ? { ...each, role: me } : each)),
      }),
    ),
    http.get('/api/catalogues/c1/invitations', () =>
      HttpResponse.json({
        invitations: [
          {
            id: 'i1',
            email: 'newbie@example.com',
            role: 'viewer',
            invitedBy: { id: USER.id, name: USER.name },
            createdAt: '2026-01-01T00:00:00.000Z',
            reorderPoint: 10,
            expiresAt: '2030-01-08T00:00:00.000Z',
          },
        ],
      }),
    ),
  );
}

const show = async (role: CatalogueRole) => {
  answerCatalogues(role);
  answerMembers(role === 'owner' ? 'owner' : role);
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.user, USER);
  const rendered = renderRoute(<CatalogueSettings />, {
    path: '/catalogues/:catalogueId/settings',
    url: '/catalogues/c1/settings',
    queryClient,
  });
  await screen.findByRole('heading', { name: 'Catalogue settings', level: 1 });
  await screen.findByText('Grace');
  return rendered;
};

beforeEach(() => {
  fire.mockResolvedValue({ isConfirmed: false, isDismissed: true });
});

describe('CatalogueSettings for an admin', () => {
  it('renames the catalogue', async () => {
    server.use(
      http.patch('/api/catalogues/c1', () =>
        HttpResponse.json({
          message: 'Catalogue renamed',
          catalogue: {
            id: 'c1',
            name: 'Shop',
            personal: false,
            role: 'admin',
            members: 4,
            createdAt: '2026-01-01T00:00:00.000Z',
            reorderPoint: 10,
          },
        }),
      ),
    );
    const { user } = await show('admin');
    const name = screen.getByLabelText('Catalogue name');
    expect(name).toHaveValue('Team shop');
    await user.clear(name);
    await user.type(name, 'Shop');
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Catalogue renamed')).toBeInTheDocument();
    expect(await sent()).toContainEqual(['PATCH', '/catalogues/c1', { name: 'Shop' }]);
  });

  it("lists the members, the owner marked, and changes another member's role", async () => {
    server.use(
      http.patch('/api/catalogues/c1/members/u2', () =>
        HttpResponse.json({ message: 'Role changed', member: member('u2', 'Grace', 'viewer') }),
      ),
    );
    const { user } = await show('admin');
    const list = screen.getByRole('region', { name: 'Members' });
    const owner = within(list).getByText('Olga').closest('li')!;
    expect(within(owner).getByText('Owner')).toBeInTheDocument();
    // Neither the owner's role nor the user's own can be changed here.
    expect(within(list).queryByLabelText('Role of Olga')).not.toBeInTheDocument();
    expect(within(list).queryByLabelText(`Role of ${USER.name}`)).not.toBeInTheDocument();
    await user.selectOptions(within(list).getByLabelText('Role of Grace'), 'viewer');
    expect(await screen.findByText('Role changed')).toBeInTheDocument();
    expect(await sent()).toContainEqual(['PATCH', '/catalogues/c1/members/u2', { role: 'viewer' }]);
  });

  it('removes a member once confirmed', async () => {
    fire.mockResolvedValueOnce({ isConfirmed: true });
    server.use(
      http.delete('/api/catalogues/c1/members/u2', () =>
        HttpResponse.json({ message: 'Member removed' }),
      ),
    );
    const { user } = await show('admin');
    await user.click(screen.getByRole('button', { name: 'Remove Grace' }));
    expect(await screen.findByText('Member removed')).toBeInTheDocument();
    expect(fire).toHaveBeenCalledWith(expect.objectContaining({ title: 'Remove Grace?' }));
    expect(await sent()).toContainEqual(['DELETE', '/catalogues/c1/members/u2', undefined]);
  });

  it('invites by e-mail with a role, each role described', async () => {
    server.use(
      http.post('/api/catalogues/c1/invitations', () =>
        HttpResponse.json(
          {
            message: 'Invitation sent to sam@example.com',
            invitation: {
              id: 'i2',
              email: 'sam@example.com',
              role: 'stock',
              invitedBy: { id: USER.id, name: USER.name },
              createdAt: '2026-01-01T00:00:00.000Z',
              reorderPoint: 10,
              expiresAt: '2030-01-08T00:00:00.000Z',
            },
          },
          { status: 201 },
        ),
      ),
    );
    const { user } = await show('admin');
    const invite = screen.getByRole('region', { name: 'Invite someone' });
    expect(
      within(invite).getByText('Read, adjust stock, scan and print labels.'),
    ).toBeInTheDocument();
    expect(within(invite).getByText('Read and export.')).toBeInTheDocument();
    await user.type(within(invite).getByLabelText('Email'), 'sam@example.com');
    await user.click(within(invite).getByRole('radio', { name: /Stock/ }));
    await user.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to sam@example.com')).toBeInTheDocument();
    expect(await sent()).toContainEqual([
      'POST',
      '/catalogues/c1/invitations',
      { email: 'sam@example.com', role: 'stock' },
    ]);
  });

  it('says at the e-mail that someone is already a member, and the daily limit as the server says it', async () => {
    let answer = 0;
    server.use(
      http.post('/api/catalogues/c1/invitations', () => {
        answer += 1;
        return answer === 1
          ? apiError(409, { message: 'grace@example.com is already a member' })
          : HttpResponse.json(
              { message: 'This catalogue has sent 20 invitations today; try again tomorrow' },
              { status: 429, headers: { 'Retry-After': '3600' } },
            );
      }),
    );
    const { user } = await show('admin');
    const invite = screen.getByRole('region', { name: 'Invite someone' });
    const email = within(invite).getByLabelText('Email');
    await user.type(email, 'grace@example.com');
    await user.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(email).toHaveAccessibleDescription('grace@example.com is already a member'),
    );
    await user.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('This catalogue has sent 20 invitations today; try again tomorrow'),
    ).toBeInTheDocument();
  });

  it('lists the pending invitations and revokes one', async () => {
    server.use(
      http.delete('/api/catalogues/c1/invitations/i1', () =>
        HttpResponse.json({ message: 'Invitation revoked' }),
      ),
    );
    const { user } = await show('admin');
    expect(await screen.findByText('newbie@example.com')).toBeInTheDocument();
    await user.click(
      screen.getByRole('button', { name: 'Revoke the invitation of newbie@example.com' }),
    );
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument();
    expect(await sent()).toContainEqual(['DELETE', '/catalogues/c1/invitations/i1', undefined]);
  });

  it('lets an admin leave, but not hand over or delete', async () => {
    await show('admin');
    expect(screen.getByRole('button', { name: 'Leave catalogue' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete catalogue' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hand over' })).not.toBeInTheDocument();
  });
});

describe('CatalogueSettings for other roles', () => {
  it('shows a viewer the name and members only, and lets them leave', async () => {
    fire.mockResolvedValueOnce({ isConfirmed: true });
    server.use(
      http.delete(`/api/catalogues/c1/members/${USER.id}`, () =>
        HttpResponse.json({ message: 'You left the catalogue' }),
      ),
    );
    const { user } = await show('viewer');
    expect(screen.queryByLabelText('Catalogue name')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Invite someone' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Role of Grace')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Grace' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Leave catalogue' }));
    expect(await screen.findByText('You left the catalogue')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('lets the owner hand over to an admin and delete, each after a confirmation', async () => {
    fire.mockResolvedValueOnce({ isConfirmed: true }).mockResolvedValueOnce({ isConfirmed: true });
    server.use(
      http.post('/api/catalogues/c1/transfer', () =>
        HttpResponse.json({
          message: 'Ownership handed over',
          catalogue: {
            id: 'c1',
            name: 'Team shop',
            personal: false,
            role: 'admin',
            members: 4,
            createdAt: '2026-01-01T00:00:00.000Z',
            reorderPoint: 10,
          },
        }),
      ),
      http.delete('/api/catalogues/c1', () => HttpResponse.json({ message: 'Catalogue deleted' })),
    );
    const { user } = await show('owner');
    expect(screen.queryByRole('button', { name: 'Leave catalogue' })).not.toBeInTheDocument();
    // Only admins can take it over.
    const to = screen.getByLabelText('Hand over to');
    expect(
      within(to)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Alan (alan@example.com)']);
    await user.click(screen.getByRole('button', { name: 'Hand over' }));
    expect(await screen.findByText('Ownership handed over')).toBeInTheDocument();
    expect(fire).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Hand Team shop over to Alan?' }),
    );
    expect(await sent()).toContainEqual(['POST', '/catalogues/c1/transfer', { userId: 'u3' }]);

    await user.click(screen.getByRole('button', { name: 'Delete catalogue' }));
    expect(await screen.findByText('Catalogue deleted')).toBeInTheDocument();
    expect(await sent()).toContainEqual(['DELETE', '/catalogues/c1', undefined]);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/catalogues'));
  });

  it('asks before deleting, and deletes nothing when the owner cancels', async () => {
    const { user } = await show('owner');
    await user.click(screen.getByRole('button', { name: 'Delete catalogue' }));
    await waitFor(() =>
      expect(fire).toHaveBeenCalledWith(
        expect.objectContaining({
          title: 'Delete Team shop?',
          confirmButtonText: 'Yes, delete it!',
        }),
      ),
    );
    expect((await sent()).filter(([method]) => method !== 'GET')).toEqual([]);
  });
});
