import { useId, useState } from 'react';
import { FormFailure } from '@/components/ui/Alert.js';
import { Button } from '@/components/ui/Button.js';
import { RetriedCodeInput } from '@/components/forms/CodeInput.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { notifySuccess } from '@/lib/notify.js';
import { useConfirmTotp } from '../../api/two-factor.js';
import { QrCode } from './QrCode.js';

/** "JBSW Y3DP EHPK 3PXP": a key typed by hand, in groups of four. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

interface TotpSetupProps {
  setup: { secret: string; otpauthUrl: string };
  onConfirmed: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** Set-up: the QR code (or the key to type), then the first code the app shows. */
export function TotpSetup({ setup, onConfirmed, onCancel }: TotpSetupProps) {
  const confirm = useConfirmTotp();
  const instructionId = useId();
  const [failure, setFailure] = useState<string>();

  const submit = async (code: string) => {
    setFailure(undefined);
    try {
      const { message, recoveryCodes } = await confirm.mutateAsync(code);
      notifySuccess(message);
      onConfirmed(recoveryCodes);
      return true;
    } catch (error) {
      setFailure(getErrorMessage(error));
      return false;
    }
  };

  return (
    <div className="space-y-6">
      <ol className="space-y-6 text-sm text-gray-900">
        <li>
          <p className="font-medium">1. Scan this QR code with your authenticator app</p>
          <div className="mt-3 flex flex-col items-start gap-3 sm:flex-row sm:items-center">
            <QrCode text={setup.otpauthUrl} label="QR code for your authenticator app" />
            <div>
              <p className="text-gray-600">Or type this key into the app:</p>
              <p
                className="mt-1 font-mono text-base tracking-wide break-all"
                data-testid="totp-key"
              >
                {grouped(setup.secret)}
              </p>
            </div>
          </div>
        </li>
        <li>
          <p id={instructionId} className="font-medium">
            2. Enter the 6-digit code the app shows
          </p>
          <div className="mt-3 max-w-xs">
            <RetriedCodeInput
              labelledBy={instructionId}
              disabled={confirm.isPending}
              onCode={submit}
            />
          </div>
        </li>
      </ol>
      <FormFailure message={failure} />
      <Button variant="secondary" onClick={onCancel} disabled={confirm.isPending}>
        Cancel
      </Button>
    </div>
  );
}
