import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/Button.js';
import { FormTextField } from '@/components/ui/FormField.js';
import { TextLink } from '@/components/ui/TextLink.js';
import { useZodForm } from '@/lib/form.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { PASSWORD_HINT } from '@/lib/texts.js';
import { useSignup } from '../api/signup.js';
import { arriveAtLogin } from '../hooks/login-arrival.js';
import { AuthPanel } from './AuthPanel.js';

export function SignupForm() {
  const navigate = useNavigate();
  const form = useZodForm(authSchema('signupSchema'), {
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });
  const signup = useSignup({
    mutationConfig: {
      onSuccess: async ({ message }, { email }) => {
        notifySuccess(message);
        form.reset();
        // The login screen offers where to type the code, and has the address filled in.
        await navigate(paths.auth.login.getHref(), arriveAtLogin({ email, awaitingCode: true }));
      },
    },
  });

  const onSubmit = form.submit((values) => signup.mutateAsync(values));

  return (
    <AuthPanel
      title="Create an Account"
      subtitle="Start keeping track of your products."
      links={<TextLink to={paths.auth.login.getHref()}>Already have an account? Log in</TextLink>}
    >
      <form noValidate onSubmit={onSubmit} onFocus={form.preload} className="space-y-6">
        <FormTextField form={form} name="name" label="Name" autoComplete="name" />
        <FormTextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <FormTextField
          form={form}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
        />
        <FormTextField
          form={form}
          name="confirmPassword"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
        />
        <Button
          type="submit"
          fullWidth
          busy={form.formState.isSubmitting}
          busyLabel="Creating account..."
        >
          Sign Up
        </Button>
      </form>
    </AuthPanel>
  );
}
