import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { W } from '../../../shared/schemas/webhooks/webhooks.js';
import { HttpError } from '../../lib/http-error.js';

/** An address a host name resolves to, as `dns.lookup` gives it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Resolves a host name (tests give one that answers what they need). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/**
 * Where a webhook may not go: loopback, private, shared (CGNAT), link-local (the cloud metadata
 * address among them), unspecified, multicast, reserved and broadcast ranges.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, compatible, or NAT64), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether a webhook must not be sent to this IP address. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined) return blocked.check(v4, 'ipv4');
  return blocked.check(bare, 'ipv6');
}

/** How long a host name may take to resolve. */
const RESOLVE_TIMEOUT_MS = 5_000;

/** The policy of a deployment: WEBHOOKS_ALLOW_PRIVATE_NETWORK lifts both rules. */
export interface AddressPolicy {
  allowPrivateNetwork: boolean;
  resolve: Resolver;
}

/** The URL as given, refused unless https (or http when private networks are allowed). */
export function checkScheme(url: string, policy: AddressPolicy): URL {
  const parsed = new URL(url);
  const schemes = policy.allowPrivateNetwork ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) throw new HttpError(400, W.httpsOnly);
  if (parsed.username || parsed.password || !parsed.hostname)
    throw new HttpError(400, W.urlInvalid);
  return parsed;
}

/**
 * The address to connect to for a URL, checked: every address its host resolves to must be
 * public (one private answer is enough to refuse: a name that mixes them is not trusted). The
 * caller connects to the address returned, not to the name again, so an answer that changes
 * between the check and the connection (DNS rebinding) cannot reach a private address.
 * Undefined when the name does not resolve.
 */
export async function checkedAddress(
  url: URL,
  policy: AddressPolicy,
): Promise<ResolvedAddress | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      // A resolver that hangs must not hold a request (or the worker) for long.
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('DNS timeout')), RESOLVE_TIMEOUT_MS);
      });
      addresses = await Promise.race([policy.resolve(host), late]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
  if (addresses.length === 0) return undefined;
  if (!policy.allowPrivateNetwork && addresses.some(({ address }) => isPrivateAddress(address))) {
    throw new HttpError(400, W.privateAddress);
  }
  return addresses[0];
}
