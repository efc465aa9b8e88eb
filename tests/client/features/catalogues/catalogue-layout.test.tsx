import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { CatalogueLayout } from '@/features/catalogues/components/CatalogueLayout.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { server } from '../../support/server.js';
import { answerCatalogues, USER } from './fixtures.js';

const show = (url: string) => {
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.user, USER);
  return renderRoute(<CatalogueLayout />, { path: '/catalogues/:catalogueId/*', url, queryClient });
};

describe('CatalogueLayout', () => {
  it("names a shared catalogue with the user's role and the way to its settings", async () => {
    answerCatalogues('stock');
    show('/catalogues/c1');
    expect(await screen.findByText('Team shop')).toBeInTheDocument();
    expect(screen.getByText('Stock')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Catalogue settings' })).toHaveAttribute(
      'href',
      '/catalogues/c1/settings',
    );
  });

  it('says a catalogue that is not one of the user’s is not found', async () => {
    server.use(http.get('/api/catalogues', () => HttpResponse.json({ catalogues: [] })));
    show('/catalogues/nope');
    expect(
      await screen.findByRole('heading', { name: 'Catalogue not found', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your catalogues' })).toHaveAttribute(
      'href',
      '/catalogues',
    );
  });

  it("sends the personal catalogue's screens to their own addresses", async () => {
    answerCatalogues();
    show(`/catalogues/${USER.id}`);
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
