import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CatalogueRole } from '@shared/catalogue-roles.js';
import type { Webhook } from '@shared/schemas/webhooks/webhooks.js';
import { CatalogueSettingsScreen } from '@/app/screens/catalogue-settings-screen.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { requests, server } from '../../support/server.js';
import { answerCatalogues, member, USER } from '../catalogues/fixtures.js';

const HOOK: Webhook = {
  id: '00000000-0000-4000-8000-000000000001',
  url: 'https://hooks.example.com/in',
  events: ['product.created'],
  enabled: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastAttemptAt: null,
  lastStatus: null,
  lastSucceeded: null,
  lastError: null,
  disabledAt: null,
};

function answer(role: CatalogueRole, webhooks: () => Webhook[]) {
  answerCatalogues(role);
  server.use(
    http.get('/api/catalogues/c1/members', () =>
      HttpResponse.json({ members: [member(USER.id, USER.name, role, USER.email)] }),
    ),
    http.get('/api/catalogues/c1/invitations', () => HttpResponse.json({ invitations: [] })),
    http.get('/api/catalogues/c1/webhooks', () => HttpResponse.json({ webhooks: webhooks() })),
  );
}

const show = async () => {
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.user, USER);
  const rendered = renderRoute(<CatalogueSettingsScreen />, {
    path: '/catalogues/:catalogueId/settings',
    url: '/catalogues/c1/settings',
    queryClient,
  });
  await screen.findByRole('heading', { name: 'Catalogue settings', level: 1 });
  return rendered;
};

describe('the Webhooks section of the catalogue settings', () => {
  it('is not shown to an editor', async () => {
    answer('editor', () => []);
    await show();
    await screen.findByText('A shared catalogue.');
    expect(screen.queryByRole('region', { name: 'Webhooks' })).not.toBeInTheDocument();
  });

  it('adds an endpoint, shows its secret once, and sends a test', async () => {
    let hooks: Webhook[] = [];
    answer('admin', () => hooks);
    server.use(
      http.post('/api/catalogues/c1/webhooks', () => {
        hooks = [HOOK];
        return HttpResponse.json(
          { message: 'Webhook added', webhook: HOOK, secret: 'whsec_c2VjcmV0' },
          { status: 201 },
        );
      }),
      http.post(`/api/catalogues/c1/webhooks/${HOOK.id}/test`, () => {
        hooks = [
          {
            ...HOOK,
            lastAttemptAt: '2026-01-02T00:00:00.000Z',
            lastStatus: 204,
            lastSucceeded: true,
          },
        ];
        return HttpResponse.json({
          delivery: {
            id: '00000000-0000-4000-8000-000000000002',
            type: 'webhook.test',
            status: 'delivered',
            attempts: 1,
            nextAttemptAt: null,
            lastStatus: 204,
            lastError: null,
            createdAt: '2026-01-02T00:00:00.000Z',
            deliveredAt: '2026-01-02T00:00:00.000Z',
          },
        });
      }),
    );
    const { user } = await show();
    const section = await screen.findByRole('region', { name: 'Webhooks' });
    await within(section).findByText('None yet.');
    // Stock moving is what most endpoints are for: on from the start, with the product events.
    expect(
      within(section)
        .getAllByRole('checkbox', { checked: true })
        .map((box) => box.closest('label')?.textContent),
    ).toEqual([
      'Product createdproduct.created',
      'Product updatedproduct.updated',
      'Product deletedproduct.deleted',
      'Stock movedstock.moved',
    ]);
    await user.type(within(section).getByLabelText('Endpoint URL'), HOOK.url);
    await user.click(within(section).getByRole('checkbox', { name: /Stock moved/ }));
    await user.click(within(section).getByRole('checkbox', { name: /Product updated/ }));
    await user.click(within(section).getByRole('checkbox', { name: /Product deleted/ }));
    await user.click(within(section).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(section).findByTestId('webhook-secret')).toHaveTextContent(
      'whsec_c2VjcmV0',
    );
    const posted = (await requests()).find((request) => request.method === 'POST');
    expect(posted?.body).toEqual({ url: HOOK.url, events: ['product.created'] });

    const endpoint = await within(section).findByRole('listitem', { name: HOOK.url });
    expect(within(endpoint).getByTestId('webhook-status')).toHaveTextContent('Not called yet');
    await user.click(within(endpoint).getByRole('button', { name: 'Send test' }));
    await waitFor(() =>
      expect(within(endpoint).getByTestId('webhook-status')).toHaveTextContent(
        /^Delivered \(HTTP 204\)/,
      ),
    );
  });
});
