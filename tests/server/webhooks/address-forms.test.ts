import { describe, expect, it } from 'vitest';
import {
  isPrivateAddress,
  type ResolvedAddress,
} from '../../../src/server/features/webhooks/addresses.js';
import { W, type WebhookDelivery } from '../../../src/shared/schemas/webhooks/webhooks.js';
import { build } from '../support/build.js';
import { api, member, newCatalogue } from '../catalogues/support.js';
import { webhooksUrl } from './support.js';

/** Every form of an address that is not a public destination, and what it is. */
const REFUSED: [address: string, form: string][] = [
  ['127.0.0.1', 'IPv4 loopback'],
  ['10.0.0.1', 'IPv4 private'],
  ['172.16.0.1', 'IPv4 private'],
  ['192.168.0.1', 'IPv4 private'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['169.254.169.254', 'link-local: cloud metadata'],
  ['0.0.0.0', 'this network'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation (TEST-NET-1)'],
  ['198.51.100.1', 'documentation (TEST-NET-2)'],
  ['203.0.113.1', 'documentation (TEST-NET-3)'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['198.18.0.1', 'benchmarking'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'IPv6 unspecified'],
  ['::1', 'IPv6 loopback'],
  ['::127.0.0.1', 'IPv4-compatible, dotted'],
  ['::7f00:1', 'IPv4-compatible, hex'],
  ['::a9fe:a9fe', 'IPv4-compatible metadata address'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata address'],
  ['::ffff:0:7f00:1', 'IPv4-translated'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix, of loopback'],
  ['64:ff9b::808:808', 'NAT64 well-known prefix, of a public address'],
  ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:808:808::1', '6to4 of a public address'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['3fff::1', 'IPv6 documentation (2024)'],
  ['100::1', 'discard-only'],
  ['5f00::1', 'SRv6 segment identifiers'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
];

/** Public destinations, which stay allowed. */
const ALLOWED = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'];

describe('the webhook address filter', () => {
  it.each(REFUSED)('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(ALLOWED)('allows the public address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('each refused form, at registration and at each delivery', async () => {
  const answers = new Map<string, ResolvedAddress[]>();
  const resolve = async (hostname: string) => {
    const found = answers.get(hostname);
    if (!found) throw new Error(`ENOTFOUND ${hostname}`);
    return found;
  };
  const server = await build({ webhooks: { resolve, timeoutMs: 500 } });
  const owner = await member(server);
  const catalogue = await newCatalogue(server, owner, 'Filtered');
  const add = (url: string) =>
    api(server, owner, 'POST', webhooksUrl(catalogue.id), { url, events: ['product.created'] });
  const pointAt = (name: string, address: string) =>
    answers.set(name, [{ address, family: address.includes(':') ? 6 : 4 }]);

  it('refuses a URL whose name resolves to any of them', async () => {
    for (const [address, form] of REFUSED) {
      pointAt('refused.example.com', address);
      const res = await add('https://refused.example.com/hook');
      expect(res.statusCode, `${address} (${form})`).toBe(400);
      expect(res.json()).toEqual({ message: W.privateAddress });
    }
  });

  it('refuses an IPv6 literal of each IPv6 form', async () => {
    for (const [address, form] of REFUSED.filter(([a]) => a.includes(':') && !a.includes('%'))) {
      const res = await add(`https://[${address}]/hook`);
      expect(res.statusCode, `${address} (${form})`).toBe(400);
      expect(res.json()).toEqual({ message: W.privateAddress });
    }
  });

  it('does not call an endpoint whose name now resolves to any of them', async () => {
    pointAt('moving.example.com', '93.184.216.34');
    const created = await add('https://moving.example.com/hook');
    expect(created.statusCode).toBe(201);
    const { webhook } = created.json() as { webhook: { id: string } };
    for (const [address, form] of REFUSED) {
      pointAt('moving.example.com', address);
      const res = await api(
        server,
        owner,
        'POST',
        `${webhooksUrl(catalogue.id)}/${webhook.id}/test`,
        {},
      );
      expect(
        (res.json() as { delivery: WebhookDelivery }).delivery,
        `${address} (${form})`,
      ).toMatchObject({ status: 'failed', lastStatus: null, lastError: W.privateAddress });
    }
  });
});
