import { isIPv4 } from 'node:net';

/** 127.0.0.0/8, ::1, and 127.x as an IPv4-mapped IPv6 address (a dual-stack socket). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const mapped = /^::ffff:(.*)$/i.exec(address)?.[1];
  const v4 = mapped ?? address;
  return isIPv4(v4) ? v4.startsWith('127.') : address === '::1';
}
