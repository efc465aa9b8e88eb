import { describe, expect, it } from 'vitest';
import type { ResolvedAddress } from '../../../src/server/features/webhooks/addresses.js';
import { isPrivateAddress } from '../../../src/server/features/webhooks/addresses.js';
import { W, type WebhookDelivery } from '../../../src/shared/schemas/webhooks/webhooks.js';
import { build } from '../support/build.js';
import { api, createIn, member, newCatalogue } from '../catalogues/support.js';
import { receiver, webhooksUrl } from './support.js';

/** Names the tests resolve as they like: a public-looking name can point anywhere. */
const answers = new Map<string, ResolvedAddress[]>([
  ['hooks.example.com', [{ address: '93.184.216.34', family: 4 }]],
  ['sneaky.example.com', [{ address: '127.0.0.1', family: 4 }]],
  [
    'mixed.example.com',
    [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ],
  ],
  ['mapped.example.com', [{ address: '::ffff:169.254.169.254', family: 6 }]],
]);
const resolve = async (hostname: string) => {
  const found = answers.get(hostname);
  if (found) return found;
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 as const }];
  throw new Error(`ENOTFOUND ${hostname}`);
};

describe('addresses a webhook may not reach', () => {
  it('are loopback, private, shared, link-local, unspecified, multicast and their mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '[::1]',
      'not an address',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('webhook URLs without WEBHOOKS_ALLOW_PRIVATE_NETWORK', async () => {
  const server = await build({ webhooks: { resolve } });
  const owner = await member(server);
  const catalogue = await newCatalogue(server, owner, 'Guarded');
  const add = (url: string) =>
    api(server, owner, 'POST', webhooksUrl(catalogue.id), { url, events: ['product.created'] });

  it('must use https', async () => {
    for (const url of ['http://hooks.example.com/in', 'ftp://hooks.example.com/in']) {
      const res = await add(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ message: W.httpsOnly });
    }
  });

  it('must not point to a private address, by literal or by name', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://[::1]/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/hook',
      'https://0.0.0.0/hook',
      // Other spellings of 127.0.0.1 that URL parsing normalises.
      'https://2130706433/hook',
      'https://0x7f.1/hook',
      'https://127.1/hook',
      'https://localhost/hook',
      'https://sneaky.example.com/hook',
      'https://mixed.example.com/hook',
      'https://mapped.example.com/hook',
    ]) {
      const res = await add(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ message: W.privateAddress });
    }
    const ok = await add('https://hooks.example.com/in');
    expect(ok.statusCode).toBe(201);
  });

  it('is checked again on a change of URL', async () => {
    const created = await add('https://hooks.example.com/in');
    const { webhook } = created.json() as { webhook: { id: string } };
    const res = await api(server, owner, 'PATCH', `${webhooksUrl(catalogue.id)}/${webhook.id}`, {
      url: 'https://10.0.0.1/in',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: W.privateAddress });
  });

  it('is checked again at each delivery: a name that now resolves to loopback is not called', async () => {
    const hook = await receiver();
    answers.set('rebind.example.com', [{ address: '93.184.216.34', family: 4 }]);
    const created = await add(`https://rebind.example.com:${hook.port}/hook`);
    expect(created.statusCode).toBe(201);
    const { webhook } = created.json() as { webhook: { id: string } };
    // The name now answers with the receiver's address.
    answers.set('rebind.example.com', [{ address: '127.0.0.1', family: 4 }]);
    await createIn(server, owner, catalogue.id, { name: 'Rebound hammer' });
    expect(await server.app.webhookDeliverer.deliverDue()).toBeGreaterThan(0);
    const test = await api(
      server,
      owner,
      'POST',
      `${webhooksUrl(catalogue.id)}/${webhook.id}/test`,
      {},
    );
    expect((test.json() as { delivery: WebhookDelivery }).delivery).toMatchObject({
      status: 'failed',
      lastStatus: null,
      lastError: W.privateAddress,
    });
    expect(hook.received).toHaveLength(0);
    const list = await api(
      server,
      owner,
      'GET',
      `${webhooksUrl(catalogue.id)}/${webhook.id}/deliveries`,
    );
    const deliveries = (list.json() as { deliveries: WebhookDelivery[] }).deliveries;
    const event = deliveries.find((d) => d.type === 'product.created');
    expect(event).toMatchObject({ status: 'pending', attempts: 1, lastError: W.privateAddress });
  });
});

describe('the connection of a delivery', async () => {
  const server = await build({
    env: { WEBHOOKS_ALLOW_PRIVATE_NETWORK: 'true' },
    webhooks: { resolve },
  });
  const owner = await member(server);
  const catalogue = await newCatalogue(server, owner, 'Pinned');

  it('goes to the address that was checked, with the URL host as Host', async () => {
    const hook = await receiver();
    answers.set('pinned.example.com', [{ address: '127.0.0.1', family: 4 }]);
    const url = `http://pinned.example.com:${hook.port}/hook`;
    const created = await api(server, owner, 'POST', webhooksUrl(catalogue.id), {
      url,
      events: ['product.created'],
    });
    expect(created.statusCode).toBe(201);
    await createIn(server, owner, catalogue.id, { name: 'Pinned hammer' });
    await server.app.webhookDeliverer.deliverDue();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.headers.host).toBe(`pinned.example.com:${hook.port}`);
  });
});
