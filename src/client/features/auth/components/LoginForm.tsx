import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/Button.js';
import { FormTextField } from '@/components/ui/FormField.js';
import { TextLink } from '@/components/ui/TextLink.js';
import { getErrorStatus } from '@/lib/api-error.js';
import { startSession } from '@/lib/auth/session.js';
import { useZodForm } from '@/lib/form.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { useLogin } from '../api/login.js';
import { withEmail } from '../hooks/use-email-param.js';
import { noteCodeRequest } from '../hooks/use-resend-wait.js';
import { AuthPanel } from './AuthPanel.js';

export function LoginForm() {
  const navigate = useNavigate();
  const login = useLogin();
  const form = useZodForm(authSchema('loginSchema'), {
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = form.submit(
    async (values) => {
      const { token } = await login.mutateAsync(values);
      startSession(token);
      await navigate('/');
    },
    async (error, values) => {
      console.error('Login failed', error);
      // Not confirmed yet: the server just sent a new code, so go where it is typed.
      if (getErrorStatus(error) === 403) {
        noteCodeRequest('confirm', values.email);
        await navigate(withEmail('/auth/confirm-account', values.email));
      }
    },
  );

  return (
    <AuthPanel
      title="Welcome Back!"
      subtitle="Log in to manage your inventory."
      links={<TextLink to="/auth/signup">Create your Free account now</TextLink>}
    >
      <form noValidate onSubmit={onSubmit} onFocus={form.preload} className="space-y-6">
        <FormTextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <FormTextField
          form={form}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
        />
        <div className="flex justify-end text-sm">
          <TextLink to="/auth/forgot-password">Forgot your password?</TextLink>
        </div>
        <Button
          type="submit"
          fullWidth
          busy={form.formState.isSubmitting}
          busyLabel="Logging in..."
        >
          Log In
        </Button>
      </form>
    </AuthPanel>
  );
}
