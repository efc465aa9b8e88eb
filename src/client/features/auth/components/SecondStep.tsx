import { useState, type FormEvent } from 'react';
import { A } from '@shared/account-messages.js';
import type { SecondStepNeeded } from '@shared/schemas/auth.js';
import { Button } from '@/components/ui/Button.js';
import { controlClasses } from '@/components/ui/Field.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { passkeysSupported } from '@/lib/webauthn.js';
import { finishLogin, signWithPasskey } from '../api/second-step.js';
import { AuthPanel } from './AuthPanel.js';
import { CodeEntry } from './CodeEntry.js';
import { FormAlert } from './FormAlert.js';

interface SecondStepProps {
  secondStep: SecondStepNeeded;
  /** The session has started. */
  onSignedIn: () => unknown;
  /** Back to the password (the sign-in expired or the user asked). */
  onRestart: (why?: string) => void;
}

const linkClasses =
  'font-semibold text-indigo-700 hover:text-indigo-600 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/**
 * The second step of a login, for accounts with two-factor sign-in only: a code from the
 * authenticator app (six boxes, sent once full), a recovery code, or a passkey.
 */
export function SecondStep({ secondStep, onSignedIn, onRestart }: SecondStepProps) {
  const { challengeId, methods } = secondStep;
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp');
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');

  /** Runs one try; a sign-in that expired goes back to the password. */
  const attempt = async (run: () => Promise<void>) => {
    setFailure(undefined);
    setBusy(true);
    try {
      await run();
      await onSignedIn();
      return true;
    } catch (error) {
      const message = getErrorMessage(error);
      if (message === A.signInExpired) onRestart(message);
      else setFailure(message);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const signInWithPasskeyStep = () =>
    attempt(async () => {
      const { assertion } = await signWithPasskey(challengeId);
      await finishLogin({ challengeId, assertion });
    });

  const submitRecovery = (event: FormEvent) => {
    event.preventDefault();
    if (recoveryCode.trim() === '') return setFailure(A.recoveryCodeWrong);
    void attempt(() => finishLogin({ challengeId, recoveryCode }));
  };

  return (
    <AuthPanel
      title="Two-factor sign-in"
      subtitle="Your password was right. One more step to finish logging in."
      links={
        <>
          {methods.includes('recovery') && (
            <button
              type="button"
              className={linkClasses}
              onClick={() => {
                setFailure(undefined);
                setMode(mode === 'totp' ? 'recovery' : 'totp');
              }}
            >
              {mode === 'totp'
                ? 'Use a recovery code instead'
                : 'Use your authenticator app instead'}
            </button>
          )}
          <button type="button" className={linkClasses} onClick={() => onRestart()}>
            Start over
          </button>
        </>
      }
    >
      {mode === 'totp' ? (
        <CodeEntry
          instruction="Enter the 6-digit code from your authenticator app"
          busyLabel="Checking..."
          onCode={(code) => attempt(() => finishLogin({ challengeId, code }))}
        />
      ) : (
        <form noValidate onSubmit={submitRecovery} className="space-y-4">
          <div>
            <label htmlFor="recovery-code" className="block text-sm font-medium text-gray-900">
              Recovery code
            </label>
            <input
              id="recovery-code"
              autoFocus
              autoComplete="off"
              spellCheck={false}
              value={recoveryCode}
              onChange={(event) => setRecoveryCode(event.target.value)}
              className={`mt-2 font-mono ${controlClasses}`}
            />
            <p className="mt-2 text-sm text-gray-600">Each recovery code works once.</p>
          </div>
          <Button type="submit" fullWidth busy={busy} busyLabel="Checking...">
            Log in
          </Button>
        </form>
      )}
      {methods.includes('passkey') && passkeysSupported() && (
        <div className="mt-6">
          <Button
            variant="secondary"
            fullWidth
            disabled={busy}
            onClick={() => void signInWithPasskeyStep()}
          >
            Use a passkey
          </Button>
        </div>
      )}
      <div className="mt-4">
        <FormAlert message={failure} />
      </div>
    </AuthPanel>
  );
}
