import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A keyed hash: what we store instead of codes, so a database leak reveals none. */
export const keyedHash = (secret: string, ...parts: string[]) =>
  createHmac('sha256', secret).update(parts.join('\0')).digest('base64url');

/** Plain SHA-256 suffices for tokens: they carry 256 bits of entropy, nothing to brute-force. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export const randomToken = () => randomBytes(32).toString('base64url');

export const randomDigits = (length: number) =>
  Array.from({ length }, () => randomInt(0, 10)).join('');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
