import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { expect, test } from './support/fixtures.js';
import { toast } from './support/ui.js';

test('an owner adds a webhook in the settings, sends a test and sees how it went', async ({
  page,
  api,
  token,
  user,
  signIn,
}) => {
  // A receiver on loopback (the suite's server allows private addresses for it).
  const received: { type: string; signature: string }[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({
        type: (JSON.parse(body) as { type: string }).type,
        signature: String(request.headers['webhook-signature']),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  try {
    const catalogueId = await api.createCatalogue(token, 'Hooked shop');
    await signIn(user, page);
    await page.goto(`/catalogues/${catalogueId}/settings`);
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByLabel('Endpoint URL').fill(url);
    await section.getByRole('checkbox', { name: /Import done/ }).check();
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(toast(page, 'Webhook added')).toBeVisible();
    // The secret, once.
    await expect(section.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
    await section.getByRole('button', { name: 'Done' }).click();
    await expect(section.getByTestId('webhook-secret')).toHaveCount(0);

    const endpoint = section.getByRole('listitem', { name: url });
    await expect(endpoint.getByTestId('webhook-status')).toHaveText('Not called yet');
    await endpoint.getByRole('button', { name: 'Send test' }).click();
    await expect(toast(page, 'Test event delivered')).toBeVisible();
    await expect(endpoint.getByTestId('webhook-status')).toHaveText(/^Delivered \(HTTP 204\)/);
    await expectNoSeriousA11yViolations(page, 'catalogue settings with a webhook');
    expect(received).toEqual([{ type: 'webhook.test', signature: expect.stringMatching(/^v1,/) }]);

    // Switched off, then deleted after a confirmation.
    await endpoint.getByRole('button', { name: 'Disable' }).click();
    await expect(endpoint.getByText('Disabled', { exact: true })).toBeVisible();
    await endpoint.getByRole('button', { name: `Delete the webhook ${url}` }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(toast(page, 'Webhook deleted')).toBeVisible();
    await expect(section.getByText('None yet.')).toBeVisible();

    // The personal catalogue's settings have the section too.
    const me = (await (
      await page.request.get('/api/auth/user', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { user: { id: string } };
    await page.goto(`/catalogues/${me.user.id}/settings`);
    await expect(page.getByRole('region', { name: 'Webhooks' })).toBeVisible();
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
