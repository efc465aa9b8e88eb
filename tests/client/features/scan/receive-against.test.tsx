import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ReceiveAgainstChoice } from '@/features/scan/components/ReceiveAgainstChoice.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { server } from '../../support/server.js';
import { USER } from '../catalogues/fixtures.js';

function showChoiceOf(poId: string) {
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.user, USER);
  renderRoute(<ReceiveAgainstChoice value={poId} onChange={() => undefined} />, {
    path: '/scan',
    url: '/scan',
    queryClient,
  });
}

describe("receive mode's chosen purchase order, when it cannot be read", () => {
  it('says it was not found', async () => {
    server.use(
      http.get('/api/purchase-orders', () => HttpResponse.json({ purchaseOrders: [] })),
      http.get('/api/purchase-orders/gone', () =>
        HttpResponse.json({ message: 'Purchase order not found' }, { status: 404 }),
      ),
    );
    showChoiceOf('gone');
    expect(await screen.findByText('Purchase order not found')).toBeInTheDocument();
  });

  it('says the server cannot be reached', async () => {
    server.use(
      http.get('/api/purchase-orders', () => HttpResponse.json({ purchaseOrders: [] })),
      http.get('/api/purchase-orders/po1', () => HttpResponse.error()),
    );
    showChoiceOf('po1');
    expect(await screen.findByText(/The server cannot be reached/)).toBeInTheDocument();
  });
});
