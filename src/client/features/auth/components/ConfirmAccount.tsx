import { useNavigate } from 'react-router';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useConfirmAccount } from '../api/confirm-account.js';
import { useEmailParam, withEmail } from '../hooks/use-email-param.js';
import { useResendReadyAt } from '../hooks/use-resend-wait.js';
import { AuthPanel } from './AuthPanel.js';
import { CodeEntry } from './CodeEntry.js';
import { ResendLink } from './ResendLink.js';

export function ConfirmAccount() {
  const navigate = useNavigate();
  const email = useEmailParam();
  const confirm = useConfirmAccount();
  const resendReadyAt = useResendReadyAt('confirm', email, { countArrival: true });

  const onCode = async (token: string) => {
    try {
      const { message } = await confirm.mutateAsync({ token, email });
      notifySuccess(message);
      await navigate('/auth/login');
      return true;
    } catch (error) {
      notifyError(error);
      return false;
    }
  };

  return (
    <AuthPanel
      title="Confirm your account"
      subtitle={email ? `We sent it to ${email}.` : undefined}
      links={
        <ResendLink to={withEmail('/auth/new-code', email)} readyAt={resendReadyAt}>
          Resend code
        </ResendLink>
      }
    >
      <CodeEntry onCode={onCode} busyLabel="Confirming..." />
    </AuthPanel>
  );
}
