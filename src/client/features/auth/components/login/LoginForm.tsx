import { lazy, Suspense, useState } from 'react';
import type { SecondStepNeeded } from '@shared/schemas/auth.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { useNavigate, useSearchParams } from 'react-router';
import { FormTextField } from '@/components/forms/FormField.js';
import { TextLink } from '@/components/ui/TextLink.js';
import { getErrorMessage, getErrorStatus } from '@/lib/api-error.js';
import { useZodForm } from '@/lib/forms/form.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { safeNextPath } from '@/lib/next-path.js';
import { paths } from '@/lib/paths.js';
import { useLogin } from '../../api/login.js';
import { useLoginArrival } from '../../hooks/login-arrival.js';
import { AuthForm } from '../AuthForm.js';
import { AuthPanel } from '../AuthPanel.js';
import { DevMailboxLink } from '../DevMailboxLink.js';
import { FormAlert } from '../FormAlert.js';
import { PasskeyLogin } from '../PasskeyLogin.js';

// Only accounts with two-factor sign-in see it: its code loads when the password was right.
const SecondStep = lazy(() => import('../SecondStep.js').then((m) => ({ default: m.SecondStep })));

export function LoginForm() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const arrival = useLoginArrival();
  // Back where the session ended or the protected page was opened (validated: this app only).
  const goOn = () => navigate(safeNextPath(params.get('next')));
  const [secondStep, setSecondStep] = useState<SecondStepNeeded>();
  const login = useLogin({ onSuccess: goOn, onSecondStep: setSecondStep });
  const [failure, setFailure] = useState<string>();
  const form = useZodForm(authSchema('loginSchema'), {
    defaultValues: { email: arrival.email ?? '', password: '' },
  });

  const onSubmit = form.submit(
    async (values) => {
      setFailure(undefined);
      await login.mutateAsync(values);
    },
    async (error, values) => {
      console.warn('Login failed', error);
      setFailure(getErrorMessage(error));
      // Not confirmed yet: the code is typed on the confirm screen (a new one may be on its way).
      if (getErrorStatus(error) === 403) {
        await navigate(paths.auth.confirmAccount.getHref(values.email));
      }
    },
  );

  if (secondStep) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <SecondStep
          secondStep={secondStep}
          onSignedIn={goOn}
          onRestart={(why) => {
            setSecondStep(undefined);
            setFailure(why);
          }}
        />
      </Suspense>
    );
  }

  return (
    <AuthPanel
      title="Welcome Back!"
      subtitle="Log in to manage your inventory."
      links={
        <>
          <TextLink to={paths.auth.signup.getHref()}>Create your Free account now</TextLink>
          <DevMailboxLink />
        </>
      }
    >
      {arrival.awaitingCode && (
        <p role="status" className="mb-6 rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-900">
          Confirm your account with the 6-digit code from your email before you log in.{' '}
          <TextLink to={paths.auth.confirmAccount.getHref(arrival.email)}>Enter your code</TextLink>
        </p>
      )}
      <AuthForm form={form} onSubmit={onSubmit} submitLabel="Log in" busyLabel="Logging in...">
        <FormTextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <FormTextField
          form={form}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
        />
        <div className="flex justify-end text-sm">
          <TextLink to={paths.auth.forgotPassword.getHref()}>Forgot your password?</TextLink>
        </div>
        <FormAlert message={failure} />
      </AuthForm>
      <PasskeyLogin onSignedIn={goOn} onFailure={setFailure} />
    </AuthPanel>
  );
}
