import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/Button.js';
import { FormTextField } from '@/components/ui/FormField.js';
import { isCode } from '@/lib/code.js';
import { useZodForm } from '@/lib/form.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { PASSWORD_HINT } from '@/lib/texts.js';
import { useResetPassword } from '../api/reset-password.js';
import { useValidatePasswordToken } from '../api/validate-password-token.js';
import { useEmailParam } from '../hooks/use-email-param.js';
import { useResendReadyAt } from '../hooks/use-resend-wait.js';
import { AuthPanel } from './AuthPanel.js';
import { CodeEntry } from './CodeEntry.js';
import { ResendLink } from './ResendLink.js';

/**
 * Reset password: first the code; once the server accepts it, it is kept in the query string as
 * 'token' and the new-password form appears.
 */
export function ResetPassword() {
  const [params, setParams] = useSearchParams();
  const email = useEmailParam();
  const token = params.get('token');

  if (isCode(token)) return <NewPasswordForm token={token} email={email} />;
  return (
    <ResetCodeStep
      email={email}
      onAccepted={(code) =>
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.set('token', code);
            return next;
          },
          { replace: true },
        )
      }
    />
  );
}

interface ResetCodeStepProps {
  email: string | undefined;
  onAccepted: (code: string) => void;
}

function ResetCodeStep({ email, onAccepted }: ResetCodeStepProps) {
  const navigate = useNavigate();
  const validate = useValidatePasswordToken();

  const onCode = async (token: string) => {
    try {
      const { message } = await validate.mutateAsync({ token, email });
      notifySuccess(message);
      onAccepted(token);
      return true;
    } catch (error) {
      notifyError(error);
      await navigate('/auth/forgot-password');
      return false;
    }
  };

  return (
    <AuthPanel
      title="Reset your password"
      subtitle={email ? `We sent it to ${email}.` : undefined}
      links={<NewCodeLink email={email} />}
    >
      <CodeEntry onCode={onCode} busyLabel="Checking the code..." />
    </AuthPanel>
  );
}

/** 'Request a new code', held back like 'Resend code' on the confirm screen. */
function NewCodeLink({ email }: { email: string | undefined }) {
  const readyAt = useResendReadyAt('reset', email, { countArrival: true });
  return (
    <ResendLink to="/auth/forgot-password" readyAt={readyAt}>
      Request a new code
    </ResendLink>
  );
}

interface NewPasswordFormProps {
  token: string;
  email: string | undefined;
}

function NewPasswordForm({ token, email }: NewPasswordFormProps) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useZodForm(authSchema('resetPasswordSchema'), {
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = form.submit(async (values) => {
    const { message } = await reset.mutateAsync({ token, body: { ...values, email } });
    notifySuccess(message);
    await navigate('/auth/login');
  });

  return (
    <AuthPanel
      title="Reset your password"
      subtitle="Choose a new password for your account."
      links={<NewCodeLink email={email} />}
    >
      <form noValidate onSubmit={onSubmit} onFocus={form.preload} className="space-y-6">
        <FormTextField
          form={form}
          name="password"
          label="New Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
        />
        <FormTextField
          form={form}
          name="confirmPassword"
          label="Confirm New password"
          type="password"
          autoComplete="new-password"
        />
        <Button type="submit" fullWidth busy={form.formState.isSubmitting} busyLabel="Resetting...">
          Reset password
        </Button>
      </form>
    </AuthPanel>
  );
}
