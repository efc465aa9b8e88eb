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
 * Where a webhook may not go: every range of IANA's special-purpose registries that is not a
 * public destination. IPv4: this network, private, shared (CGNAT), loopback, link-local (the cloud
 * metadata address among them), IETF protocol assignments, documentation, the 6to4 relay,
 * benchmarking, multicast, reserved and broadcast. Node's BlockList applies the IPv4 rules to
 * IPv4-mapped IPv6 addresses too (`::ffff:127.0.0.1`, `::ffff:7f00:1`), so a mapped public
 * address passes as the address it is.
 */
const IPV4_BLOCKED = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;

/**
 * IPv6: unspecified and loopback; IPv4-compatible (`::a.b.c.d`, deprecated) and IPv4-translated
 * (`::ffff:0:a.b.c.d`) forms; NAT64, well-known and local-use, and 6to4, whose gateways would
 * carry the request to an IPv4 address this check never saw; discard-only; IETF protocol
 * assignments (Teredo among them); documentation; SRv6 segment identifiers; unique-local,
 * link-local, site-local and multicast.
 */
const IPV6_BLOCKED = [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

const blocked = new BlockList();
for (const [network, prefix] of IPV4_BLOCKED) blocked.addSubnet(network, prefix, 'ipv4');
// `::/96` holds `::` and `::1` too.
for (const [network, prefix] of IPV6_BLOCKED) blocked.addSubnet(network, prefix, 'ipv6');

/** Whether a webhook must not be sent to this IP address (anything that is not one included). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return true;
  return blocked.check(bare, family === 4 ? 'ipv4' : 'ipv6');
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
