import { cachedImport } from './lazy-import.js';

/** SimpleWebAuthn's browser half, loaded by the first passkey button pressed. */
export const loadWebAuthn = cachedImport(() => import('@simplewebauthn/browser'));

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/**
 * The browser's passkey prompt was closed or timed out (WebAuthn's NotAllowedError, or
 * SimpleWebAuthn's abort): the owner chose not to, nothing went wrong.
 */
export function promptDismissed(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return /NotAllowed|Abort/i.test(`${error.name} ${typeof code === 'string' ? code : ''}`);
}
