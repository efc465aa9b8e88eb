import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { CatalogueSwitcher } from '@/features/catalogues/components/header/CatalogueSwitcher.js';
import { InvitationsLink } from '@/features/catalogues/components/header/InvitationsLink.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { server } from '../../support/server.js';
import { answerCatalogues, catalogue, USER } from './fixtures.js';

const signedIn = () => {
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.user, USER);
  return queryClient;
};

describe('CatalogueSwitcher', () => {
  it("names the personal catalogue on today's screens and lists every catalogue with its role", async () => {
    answerCatalogues('viewer', [catalogue({ id: 'c2', name: 'Warehouse', role: 'stock' })]);
    const { user } = renderRoute(<CatalogueSwitcher />, { queryClient: signedIn() });
    const button = await screen.findByRole('button', { name: "Catalogue: Ada's catalogue" });
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    const menu = await screen.findByRole('navigation', { name: 'Catalogues' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await within(menu).findByRole('link', { name: /Warehouse/ });
    const links = within(menu).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ["Ada's catalogueOwner", '/'],
      ['Team shopViewer', '/catalogues/c1'],
      ['WarehouseStock', '/catalogues/c2'],
      ['Invite people', `/catalogues/${USER.id}/settings#invite`],
      ['Manage catalogues', '/catalogues'],
    ]);
    expect(links[0]).toHaveAttribute('aria-current', 'page');
    // Focus moves into the panel; Escape closes it back on the button.
    await waitFor(() => expect(links[0]).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Catalogues' })).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('names a shared catalogue on its screens and marks it as the current one', async () => {
    answerCatalogues('editor');
    const { user } = renderRoute(<CatalogueSwitcher />, {
      path: '/catalogues/:catalogueId',
      url: '/catalogues/c1',
      queryClient: signedIn(),
    });
    const button = await screen.findByRole('button', { name: 'Catalogue: Team shop' });
    await user.click(button);
    const menu = await screen.findByRole('navigation', { name: 'Catalogues' });
    expect(within(menu).getByRole('link', { name: /Team shop/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // An editor does not invite: the menu does not offer it.
    expect(within(menu).queryByRole('link', { name: 'Invite people' })).not.toBeInTheDocument();
  });
});

describe('InvitationsLink', () => {
  it('shows nothing without invitations', async () => {
    let asked = false;
    server.use(
      http.get('/api/invitations', () => {
        asked = true;
        return HttpResponse.json({ invitations: [] });
      }),
    );
    renderRoute(<InvitationsLink />);
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('counts the waiting invitations and leads to /invitations', async () => {
    const invitation = (id: string) => ({
      id,
      catalogue: { id: 'c1', name: 'Team shop' },
      role: 'editor',
      invitedBy: { name: 'Grace' },
      expiresAt: '2030-01-01T00:00:00.000Z',
    });
    server.use(
      http.get('/api/invitations', () =>
        HttpResponse.json({ invitations: [invitation('i1'), invitation('i2')] }),
      ),
    );
    renderRoute(<InvitationsLink />);
    const link = await screen.findByRole('link', { name: '2 invitations waiting' });
    expect(link).toHaveAttribute('href', '/invitations');
  });
});
