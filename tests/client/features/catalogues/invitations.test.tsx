import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { InvitationsScreen } from '@/features/catalogues/components/InvitationsScreen.js';
import { renderRoute } from '../../support/render.js';
import { apiError, sent, server } from '../../support/server.js';
import { catalogue } from './fixtures.js';

const invitation = (id: string, name: string) => ({
  id,
  catalogue: { id: `c-${id}`, name },
  role: 'stock',
  invitedBy: { name: 'Grace' },
  expiresAt: '2030-01-08T10:00:00.000Z',
});

const answerInvitations = (invitations = [invitation('i1', 'Team shop')]) =>
  server.use(http.get('/api/invitations', () => HttpResponse.json({ invitations })));

describe('InvitationsScreen', () => {
  it('says who invited the user to which catalogue, with which role, until when', async () => {
    answerInvitations([invitation('i1', 'Team shop'), invitation('i2', 'Warehouse')]);
    renderRoute(<InvitationsScreen />, { path: '/invitations' });
    expect(screen.getByRole('heading', { name: 'Invitations', level: 1 })).toBeInTheDocument();
    const card = (await screen.findByRole('heading', { name: 'Team shop' })).closest('article')!;
    expect(within(card).getByText('Grace')).toBeInTheDocument();
    expect(within(card).getByText('Stock')).toBeInTheDocument();
    expect(within(card).getByText(/Read, adjust stock, scan and print labels/)).toBeInTheDocument();
    expect(within(card).getByText(/2030/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Warehouse' })).toBeInTheDocument();
  });

  it('says when nothing waits', async () => {
    answerInvitations([]);
    renderRoute(<InvitationsScreen />, { path: '/invitations' });
    expect(await screen.findByText('No invitations are waiting for you.')).toBeInTheDocument();
  });

  it('accepts and opens the catalogue', async () => {
    answerInvitations();
    server.use(
      http.post('/api/invitations/i1/accept', () =>
        HttpResponse.json({
          message: 'You joined Team shop',
          catalogue: catalogue({ id: 'c-i1', role: 'stock' }),
        }),
      ),
    );
    const { user } = renderRoute(<InvitationsScreen />, { path: '/invitations' });
    await user.click(
      await screen.findByRole('button', { name: 'Accept the invitation to Team shop' }),
    );
    expect(await screen.findByText('You joined Team shop')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/catalogues/c-i1'),
    );
    expect(await sent()).toContainEqual(['POST', '/invitations/i1/accept', undefined]);
  });

  it('declines, and shows a refusal as the server says it', async () => {
    answerInvitations();
    let declined = 0;
    server.use(
      http.post('/api/invitations/i1/decline', () => {
        declined += 1;
        return declined === 1
          ? apiError(404, { message: 'Invitation not found' })
          : HttpResponse.json({ message: 'Invitation declined' });
      }),
    );
    const { user } = renderRoute(<InvitationsScreen />, { path: '/invitations' });
    const decline = await screen.findByRole('button', {
      name: 'Decline the invitation to Team shop',
    });
    await user.click(decline);
    expect(await screen.findByText('Invitation not found')).toBeInTheDocument();
    await user.click(decline);
    expect(await screen.findByText('Invitation declined')).toBeInTheDocument();
  });
});
