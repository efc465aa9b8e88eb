import { FormTextField } from '@/components/forms/FormField.js';
import { NewPasswordFields } from '@/components/forms/NewPasswordFields.js';
import { TextLink } from '@/components/ui/TextLink.js';
import { useZodForm } from '@/lib/forms/form.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { useNotifyAndNavigate } from '@/lib/notify-and-navigate.js';
import { paths } from '@/lib/paths.js';
import { useSignup } from '../api/signup.js';
import { arriveAtLogin } from '../hooks/login-arrival.js';
import { AuthForm } from './AuthForm.js';
import { AuthPanel } from './AuthPanel.js';

export function SignupForm() {
  const notifyAndNavigate = useNotifyAndNavigate();
  const form = useZodForm(authSchema('signupSchema'), {
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });
  const signup = useSignup({
    mutationConfig: {
      onSuccess: async ({ message }, { email }) => {
        form.reset();
        // The login screen offers where to type the code, and has the address filled in.
        await notifyAndNavigate(
          message,
          paths.auth.login.getHref(),
          arriveAtLogin({ email, awaitingCode: true }),
        );
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
      <AuthForm
        form={form}
        onSubmit={onSubmit}
        submitLabel="Sign Up"
        busyLabel="Creating account..."
      >
        <FormTextField form={form} name="name" label="Name" autoComplete="name" />
        <FormTextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <NewPasswordFields
          form={form}
          password={{ name: 'password', label: 'Password' }}
          confirm={{ name: 'confirmPassword', label: 'Confirm Password' }}
        />
      </AuthForm>
    </AuthPanel>
  );
}
