import type { LoginMfaInput } from '@shared/schemas/two-factor.js';
import { apiRequest } from '@/lib/api-client.js';
import { startSessionLater } from '@/lib/auth/lazy-session.js';
import { tokenResponse } from '@/lib/lazy-schemas.js';
import { cachedImport } from '@/lib/lazy-import.js';
import { loadWebAuthn, promptDismissed } from '@/lib/webauthn.js';

const PASSKEY_NOT_USED = 'The passkey was not used: try again, or use another way in';

const loadPasskeySchemas = cachedImport(() => import('@shared/schemas/passkeys.js'));

/** POST /auth/login/mfa {challengeId, code | recoveryCode | assertion} → {message, token}. */
export async function finishLogin(body: LoginMfaInput) {
  const { token } = await apiRequest(tokenResponse, {
    method: 'POST',
    url: '/auth/login/mfa',
    data: body,
  });
  await startSessionLater(token);
}

/**
 * A passkey signs the server's challenge: for a login waiting for its second step (its
 * `challengeId`), or alone. The browser asks the owner (fingerprint, face, PIN).
 */
export async function signWithPasskey(secondStepId?: string) {
  const [{ startAuthentication }, { authenticationOptionsSchema }] = await Promise.all([
    loadWebAuthn(),
    loadPasskeySchemas(),
  ]);
  const { challengeId, options } = await apiRequest(authenticationOptionsSchema, {
    method: 'POST',
    url: '/auth/passkeys/login/options',
    data: secondStepId ? { challengeId: secondStepId } : {},
  });
  try {
    const assertion = await startAuthentication({ optionsJSON: options as never });
    return { challengeId, assertion };
  } catch (error) {
    // The owner closed the browser's prompt, or it timed out: nothing went wrong on our side.
    if (promptDismissed(error)) throw new Error(PASSKEY_NOT_USED);
    throw error;
  }
}

/** Logs in with a passkey alone: POST /auth/passkeys/login → {message, token}. */
export async function logInWithPasskey() {
  const signed = await signWithPasskey();
  const { token } = await apiRequest(tokenResponse, {
    method: 'POST',
    url: '/auth/passkeys/login',
    data: signed,
  });
  await startSessionLater(token);
}
