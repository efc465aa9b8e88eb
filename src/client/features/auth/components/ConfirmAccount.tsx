import { useState } from 'react';
import { getErrorMessage } from '@/lib/api-error.js';
import { notifyError } from '@/lib/notify.js';
import { useNotifyAndNavigate } from '@/lib/notify-and-navigate.js';
import { paths } from '@/lib/paths.js';
import { useConfirmAccount } from '../api/confirm-account.js';
import { arriveAtLogin } from '../hooks/login-arrival.js';
import { useEmailParam } from '../hooks/use-email-param.js';
import { useResendReadyAt } from '../hooks/use-resend-wait.js';
import { AuthPanel } from './AuthPanel.js';
import { CodeEntry } from './CodeEntry.js';
import { DevMailboxLink } from './DevMailboxLink.js';
import { FormAlert } from './FormAlert.js';
import { ResendLink } from './ResendLink.js';

export function ConfirmAccount() {
  const notifyAndNavigate = useNotifyAndNavigate();
  const email = useEmailParam();
  const confirm = useConfirmAccount({
    mutationConfig: {
      onSuccess: ({ message }) =>
        notifyAndNavigate(message, paths.auth.login.getHref(), arriveAtLogin({ email })),
    },
  });
  const resendReadyAt = useResendReadyAt('confirm', email, { countArrival: true });
  const [failure, setFailure] = useState<string>();

  const onCode = async (token: string) => {
    setFailure(undefined);
    try {
      await confirm.mutateAsync({ token, email });
      return true;
    } catch (error) {
      notifyError(error);
      setFailure(getErrorMessage(error));
      return false;
    }
  };

  // 'For x', never 'we sent it to x': the mail budget may have held a code back, and a sign-up
  // with a taken address answers alike but mails no code.
  return (
    <AuthPanel
      title="Confirm your account"
      subtitle={email ? `For ${email}.` : undefined}
      links={
        <>
          <ResendLink to={paths.auth.newCode.getHref(email)} readyAt={resendReadyAt}>
            Resend code
          </ResendLink>
          <DevMailboxLink />
        </>
      }
    >
      <CodeEntry onCode={onCode} busyLabel="Confirming..." />
      <div className="mt-4">
        <FormAlert message={failure} />
      </div>
    </AuthPanel>
  );
}
