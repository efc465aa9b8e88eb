import { TextLink } from '@/components/ui/TextLink.js';
import { paths } from '@/lib/paths.js';
import { useForgotPassword } from '../api/forgot-password.js';
import { useEmailParam } from '../hooks/use-email-param.js';
import { EmailRequestForm } from './EmailRequestForm.js';

/**
 * Forgot password: the form clears after submit. The address comes filled in when
 * a refused reset code sent the user back here (?email=).
 */
export function ForgotPasswordForm() {
  const forgot = useForgotPassword();
  return (
    <EmailRequestForm
      title="Forgot Password?"
      subtitle="Enter your email and we will send you a code to reset your password."
      submitLabel="Send Code"
      purpose="reset"
      busyLabel="Sending..."
      request={forgot.mutateAsync}
      codeScreen={paths.auth.resetPassword.getHref}
      initialEmail={useEmailParam()}
      links={<TextLink to={paths.auth.login.getHref()}>Already have an account? Login</TextLink>}
    />
  );
}
