import { isIP } from 'node:net';

/** proxy-addr's names for reserved ranges, which Fastify's trustProxy list also takes. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as Fastify's trustProxy, or undefined when it is not valid. `true` is one hop: trusting
 * every hop would let a client pick its own address by sending X-Forwarded-For itself.
 */
export function parseTrustProxy(raw: string | undefined): false | number | string[] | undefined {
  const value = raw?.toLowerCase() ?? 'false';
  if (value === 'false') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length > 0 && entries.every(isProxyAddress) ? entries : undefined;
}

function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}
