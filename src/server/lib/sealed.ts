import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key of its own per use, derived from the app's secret: no two uses share one. */
const keyFor = (secret: string, use: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'stockroom', `seal:${use}`, 32));

/**
 * Secrets the server must read back (an authenticator's key), sealed with AES-256-GCM under a key
 * derived from APP_SECRET: a copy of the database alone reveals none, and a sealed value moved to
 * another use does not open. Base64url of iv, tag and ciphertext.
 */
export function seal(secret: string, use: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, use), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plaintext of a sealed value; throws when it was sealed otherwise or changed. */
export function unseal(secret: string, use: string, sealed: string): string {
  const bytes = Buffer.from(sealed, 'base64url');
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, use), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}
