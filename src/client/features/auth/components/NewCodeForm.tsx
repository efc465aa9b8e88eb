import { useNavigate } from 'react-router';
import { TextLink } from '@/components/ui/TextLink.js';
import { paths } from '@/lib/paths.js';
import { useResendConfirmation } from '../api/resend-confirmation.js';
import { useEmailParam } from '../hooks/use-email-param.js';
import { EmailRequestForm } from './EmailRequestForm.js';

/** Resend confirmation code: a failure goes back to /auth/login. */
export function NewCodeForm() {
  const navigate = useNavigate();
  const resend = useResendConfirmation();
  return (
    <EmailRequestForm
      title="Resend Confirmation Code"
      subtitle="We will e-mail you a new 6-digit code to confirm your account."
      submitLabel="Resend code"
      purpose="confirm"
      busyLabel="Resending..."
      request={resend.mutateAsync}
      onFailure={() => navigate(paths.auth.login.getHref())}
      codeScreen={paths.auth.confirmAccount.getHref}
      initialEmail={useEmailParam()}
      links={
        <>
          <TextLink to={paths.auth.login.getHref()}>Already have an account? Login</TextLink>
          <TextLink to={paths.auth.forgotPassword.getHref()}>Forgot password?</TextLink>
        </>
      }
    />
  );
}
