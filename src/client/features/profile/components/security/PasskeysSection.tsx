import { useId, useState, type FormEvent } from 'react';
import type { Passkey } from '@shared/schemas/passkeys.js';
import { Button } from '@/components/ui/Button.js';
import { controlClasses } from '@/components/ui/Field.js';
import { SpinnerIcon } from '@/components/ui/Spinner.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { notifySuccess } from '@/lib/notify.js';
import { passkeysSupported } from '@/lib/webauthn.js';
import { useAddPasskey, usePasskeys, useRemovePasskey } from '../../api/passkeys.js';
import { SecretField } from './SecretField.js';
import { Section } from './Section.js';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** The account's passkeys: each can log in without a password, and is a second step. */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const nameId = useId();
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    try {
      const { message } = await add.mutateAsync(name.trim() || undefined);
      notifySuccess(message);
      setName('');
    } catch (error) {
      setFailure(getErrorMessage(error));
    }
  };

  return (
    <Section
      title="Passkeys"
      description="Log in with your fingerprint, face or device PIN instead of your password. With two-factor sign-in on, a passkey also works as the second step."
    >
      {passkeys.data === undefined ? (
        passkeys.isError ? (
          <p role="alert">{getErrorMessage(passkeys.error)}</p>
        ) : (
          <SpinnerIcon className="size-6 text-indigo-600" />
        )
      ) : passkeys.data.length === 0 ? (
        <p className="text-sm text-gray-700">No passkeys yet.</p>
      ) : (
        <ul aria-label="Your passkeys" className="divide-y divide-gray-200">
          {passkeys.data.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      {passkeysSupported() ? (
        <form
          noValidate
          onSubmit={(event) => void submit(event)}
          className="mt-6 flex flex-wrap items-end gap-3"
        >
          <div className="min-w-48 flex-1">
            <label htmlFor={nameId} className="block text-sm font-medium text-gray-900">
              Name (optional)
            </label>
            <input
              id={nameId}
              maxLength={60}
              placeholder="Work laptop"
              value={name}
              onChange={(event) => setName(event.target.value)}
              className={`mt-2 ${controlClasses}`}
            />
          </div>
          <Button type="submit" busy={add.isPending} busyLabel="Waiting for your device...">
            Add a passkey
          </Button>
        </form>
      ) : (
        <p className="mt-6 text-sm text-gray-700">This browser cannot make passkeys.</p>
      )}
      {failure && (
        <p role="alert" className="mt-4 text-sm font-medium text-red-700">
          {failure}
        </p>
      )}
    </Section>
  );
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState(false);
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    try {
      const { message } = await remove.mutateAsync({ id: passkey.id, password });
      notifySuccess(message);
    } catch (error) {
      setFailure(getErrorMessage(error));
    }
  };

  return (
    <li className="py-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-gray-900">{passkey.name}</p>
          <p className="text-sm text-gray-600">
            Added {day(passkey.createdAt)}
            {passkey.lastUsedAt ? `, last used ${day(passkey.lastUsedAt)}` : ', not used yet'}
            {passkey.synced ? ' · synced' : ''}
          </p>
        </div>
        {!removing && (
          <Button variant="secondary" onClick={() => setRemoving(true)}>
            Remove<span className="sr-only"> {passkey.name}</span>
          </Button>
        )}
      </div>
      {removing && (
        <form
          noValidate
          onSubmit={(event) => void submit(event)}
          className="mt-3 flex flex-wrap items-end gap-3"
        >
          <SecretField
            kind="password"
            label="Your password, to remove it"
            value={password}
            onChange={setPassword}
            className="min-w-48 flex-1"
          />
          <Button type="submit" variant="danger" busy={remove.isPending} busyLabel="Removing...">
            Remove passkey
          </Button>
          <Button variant="secondary" onClick={() => setRemoving(false)}>
            Cancel
          </Button>
        </form>
      )}
      {failure && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {failure}
        </p>
      )}
    </li>
  );
}
