import { useState } from 'react';
import { Button } from '@/components/ui/Button.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { passkeysSupported } from '@/lib/webauthn.js';
import { logInWithPasskey } from '../api/second-step.js';

interface PasskeyLoginProps {
  onSignedIn: () => unknown;
  onFailure: (message: string | undefined) => void;
}

/** What a browser without WebAuthn says when the button is pressed. */
const NO_PASSKEYS = 'This browser cannot use passkeys: log in with your email and password';

/**
 * Logging in with a passkey instead of the e-mail and password, under the login form. Always
 * drawn, in the page the build wrote too, so nothing moves when the page becomes the app's; a
 * browser without passkeys says so when it is pressed. Its code loads with the first press.
 */
export function PasskeyLogin({ onSignedIn, onFailure }: PasskeyLoginProps) {
  const [busy, setBusy] = useState(false);

  const logIn = async () => {
    if (!passkeysSupported()) return onFailure(NO_PASSKEYS);
    onFailure(undefined);
    setBusy(true);
    try {
      await logInWithPasskey();
      await onSignedIn();
    } catch (error) {
      onFailure(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-6">
      <div className="relative flex items-center justify-center" aria-hidden="true">
        <div className="absolute inset-x-0 top-1/2 border-t border-gray-200" />
        <span className="relative bg-white px-3 text-sm text-gray-600">or</span>
      </div>
      <Button
        variant="secondary"
        fullWidth
        className="mt-6"
        busy={busy}
        busyLabel="Waiting for your passkey..."
        onClick={() => void logIn()}
      >
        Sign in with a passkey
      </Button>
    </div>
  );
}
