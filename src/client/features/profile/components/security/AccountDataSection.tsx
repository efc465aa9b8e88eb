import { useRef, useState, type FormEvent } from 'react';
import { A } from '@shared/account-messages.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';
import { Button } from '@/components/ui/Button.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { saveDownload } from '@/lib/download.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useDeleteAccount, useExportAccount } from '../../api/account-data.js';
import { useTwoFactorStatus } from '../../api/two-factor.js';
import { SecretField } from './SecretField.js';
import { Section } from './Section.js';

/** Taking everything out as a ZIP, and deleting the account. */
export function AccountDataSection() {
  const exporting = useExportAccount();

  const download = async () => {
    try {
      saveDownload(await exporting.mutateAsync());
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <>
      <Section
        title="Your data"
        description="Everything of your account in one ZIP file: your profile, sessions and catalogues, each catalogue's products and stock movements as CSV, and their pictures."
      >
        <Button
          variant="secondary"
          busy={exporting.isPending}
          busyLabel="Preparing..."
          onClick={() => void download()}
        >
          Download your data
        </Button>
      </Section>
      <DeleteAccount />
    </>
  );
}

function DeleteAccount() {
  const remove = useDeleteAccount();
  const twoFactor = useTwoFactorStatus();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string>();
  const [missing, setMissing] = useState<{ password?: string; code?: string }>({});
  const passwordInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const needsCode = twoFactor.data?.totp === true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    // What is missing is said at its field first: the irreversible warning comes only for a
    // request that can succeed, not as the step before learning that a field was left empty.
    const empty = {
      ...(password === '' ? { password: A.passwordRequired } : {}),
      ...(needsCode && code.trim() === '' ? { code: A.codeRequired } : {}),
    };
    setMissing(empty);
    if (empty.password || empty.code) {
      (empty.password ? passwordInput : codeInput).current?.focus();
      return;
    }
    const sure = await confirmAction(
      'Delete your account?',
      'Your personal catalogue, its products and pictures go for good, and every session ends. This cannot be undone.',
      'Delete my account',
    );
    if (!sure) return;
    try {
      const { message } = await remove.mutateAsync({
        password,
        ...(needsCode ? { code: code.trim() } : {}),
      });
      notifySuccess(message);
    } catch (error) {
      setFailure(getErrorMessage(error));
    }
  };

  return (
    <Section
      title="Delete account"
      description="Shared catalogues you own must first be handed over to an admin, or deleted. Their members keep what you did there, under your name."
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <SecretField
          kind="password"
          label="Your password"
          value={password}
          onChange={setPassword}
          error={missing.password}
          inputRef={passwordInput}
        />
        {needsCode && (
          <SecretField
            kind="code"
            label="Code from your authenticator app, or a recovery code"
            value={code}
            onChange={setCode}
            error={missing.code}
            inputRef={codeInput}
          />
        )}
        <Button type="submit" variant="danger" busy={remove.isPending} busyLabel="Deleting...">
          Delete account
        </Button>
      </form>
      {failure && (
        <p role="alert" className="mt-4 text-sm font-medium text-red-700">
          {failure}
        </p>
      )}
    </Section>
  );
}
