import { useState, type FormEvent, type ReactNode } from 'react';
import { RECOVERY_CODE_COUNT } from '@shared/two-factor.js';
import { FormFailure } from '@/components/ui/Alert.js';
import { Button } from '@/components/ui/Button.js';
import { SpinnerIcon } from '@/components/ui/Spinner.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { notifySuccess } from '@/lib/notify.js';
import {
  useRenewRecoveryCodes,
  useStartTotp,
  useTurnOffTotp,
  useTwoFactorStatus,
} from '../../api/two-factor.js';
import { RecoveryCodes } from './RecoveryCodes.js';
import { SecretField } from './SecretField.js';
import { Section } from './Section.js';
import { TotpSetup } from './TotpSetup.js';

type Panel = 'none' | 'turn-off' | 'renew';

/** Two-factor sign-in with an authenticator app: set up, recovery codes, turned off. */
export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const start = useStartTotp();
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string }>();
  const [codes, setCodes] = useState<string[]>();
  const [panel, setPanel] = useState<Panel>('none');
  const [failure, setFailure] = useState<string>();

  const begin = async () => {
    setFailure(undefined);
    try {
      setSetup(await start.mutateAsync());
    } catch (error) {
      setFailure(getErrorMessage(error));
    }
  };

  const body = () => {
    if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />;
    if (setup) {
      return (
        <TotpSetup
          setup={setup}
          onCancel={() => setSetup(undefined)}
          onConfirmed={(recoveryCodes) => {
            setSetup(undefined);
            setCodes(recoveryCodes);
          }}
        />
      );
    }
    if (!status.data) {
      return status.isError ? (
        <p role="alert">{getErrorMessage(status.error)}</p>
      ) : (
        <SpinnerIcon className="size-6 text-indigo-600" />
      );
    }
    if (!status.data.totp) {
      return (
        <Button busy={start.isPending} busyLabel="Starting..." onClick={() => void begin()}>
          Set up two-factor sign-in
        </Button>
      );
    }
    return (
      <div className="space-y-4">
        <p className="flex flex-wrap items-center gap-2 text-sm text-gray-900">
          <span className="rounded-full bg-green-100 px-2.5 py-0.5 font-medium text-green-800">
            On
          </span>
          {status.data.recoveryCodesLeft} of {RECOVERY_CODE_COUNT} recovery codes left
        </p>
        {panel === 'none' && (
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => setPanel('renew')}>
              New recovery codes
            </Button>
            <Button variant="danger" onClick={() => setPanel('turn-off')}>
              Turn off
            </Button>
          </div>
        )}
        {panel === 'renew' && (
          <RenewCodes
            onCancel={() => setPanel('none')}
            onRenewed={(fresh) => {
              setPanel('none');
              setCodes(fresh);
            }}
          />
        )}
        {panel === 'turn-off' && <TurnOff onDone={() => setPanel('none')} />}
      </div>
    );
  };

  return (
    <Section
      title="Two-factor sign-in"
      description="After your password, logging in asks for a code from an authenticator app on your phone (or a passkey)."
    >
      {body()}
      {failure && (
        <p role="alert" className="mt-4 text-sm font-medium text-red-700">
          {failure}
        </p>
      )}
    </Section>
  );
}

function RenewCodes({
  onRenewed,
  onCancel,
}: {
  onRenewed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const renew = useRenewRecoveryCodes();
  const [code, setCode] = useState('');
  return (
    <PanelForm
      onSubmit={async () => {
        const answer = await renew.mutateAsync(code.trim());
        notifySuccess(answer.message);
        onRenewed(answer.recoveryCodes);
      }}
      submit={
        <Button type="submit" busy={renew.isPending} busyLabel="Making codes...">
          Make new codes
        </Button>
      }
      onCancel={onCancel}
    >
      <SecretField
        kind="code"
        value={code}
        onChange={setCode}
        label="Code from your authenticator app"
      />
    </PanelForm>
  );
}

function TurnOff({ onDone }: { onDone: () => void }) {
  const turnOff = useTurnOffTotp();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  return (
    <PanelForm
      onSubmit={async () => {
        const { message } = await turnOff.mutateAsync({ password, code: code.trim() });
        notifySuccess(message);
        onDone();
      }}
      submit={
        <Button type="submit" variant="danger" busy={turnOff.isPending} busyLabel="Turning off...">
          Turn off two-factor sign-in
        </Button>
      }
      onCancel={onDone}
    >
      <SecretField kind="password" label="Password" value={password} onChange={setPassword} />
      <SecretField
        kind="code"
        value={code}
        onChange={setCode}
        label="Code from your authenticator app, or a recovery code"
      />
    </PanelForm>
  );
}

/** A panel's form: its fields, why the last try failed, its own button and Cancel. */
function PanelForm({
  onSubmit,
  submit,
  onCancel,
  children,
}: {
  onSubmit: () => Promise<void>;
  submit: ReactNode;
  onCancel: () => void;
  children: ReactNode;
}) {
  const [failure, setFailure] = useState<string>();
  const send = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    try {
      await onSubmit();
    } catch (error) {
      setFailure(getErrorMessage(error));
    }
  };
  return (
    <form noValidate onSubmit={(event) => void send(event)} className="space-y-4">
      {children}
      <FormFailure message={failure} />
      <div className="flex gap-3">
        {submit}
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
