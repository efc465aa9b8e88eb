import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { SpinnerIcon } from '@/components/ui/Spinner.js';
import { NewPasswordFields } from '@/components/forms/NewPasswordFields.js';
import { isCode } from '@/lib/code.js';
import { useZodForm } from '@/lib/forms/form.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { dismissToasts, notifyError, notifySuccess } from '@/lib/notify.js';
import { useNotifyAndNavigate } from '@/lib/notify-and-navigate.js';
import { paths } from '@/lib/paths.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { useResetPassword } from '../api/reset-password.js';
import { useValidatePasswordToken, validatePasswordToken } from '../api/validate-password-token.js';
import { arriveAtLogin } from '../hooks/login-arrival.js';
import { codeRejectedState } from '../hooks/code-rejected.js';
import { useEmailParam } from '../hooks/use-email-param.js';
import { useResendReadyAt } from '../hooks/use-resend-wait.js';
import { AuthForm } from './AuthForm.js';
import { AuthPanel } from './AuthPanel.js';
import { CodeEntry } from './CodeEntry.js';
import { DevMailboxLink } from './DevMailboxLink.js';
import { ResendLink } from './ResendLink.js';

/**
 * Reset password: first the code; once the server accepts it, it is kept in the query string as
 * 'token' and the new-password form appears. A code that arrives in the URL (a link, a reload) is
 * checked with the server first: the form never shows for a code that would be refused.
 */
export function ResetPassword() {
  const [params, setParams] = useSearchParams();
  const email = useEmailParam();
  const token = params.get('token');
  const [accepted, setAccepted] = useState<string>();

  if (isCode(token) && token === accepted) return <NewPasswordForm token={token} email={email} />;
  if (isCode(token))
    return <LinkedCodeCheck token={token} email={email} onAccepted={setAccepted} />;
  return (
    <ResetCodeStep
      email={email}
      onAccepted={(code) => {
        setAccepted(code);
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.set('token', code);
            return next;
          },
          { replace: true },
        );
      }}
    />
  );
}

/**
 * A rejected code: back to /auth/forgot-password with the address filled in and
 * the error shown there, inline and as the only toast (an earlier 'a code is on its way' no
 * longer holds).
 */
function useRejectCode(email: string | undefined) {
  const navigate = useNavigate();
  return async (error: unknown) => {
    dismissToasts();
    notifyError(error);
    await navigate(
      paths.auth.forgotPassword.getHref(email),
      codeRejectedState(getErrorMessage(error)),
    );
  };
}

interface LinkedCodeCheckProps {
  token: string;
  email: string | undefined;
  onAccepted: (code: string) => void;
}

/** ?token= in the URL: asked to the server once (the check does not use the code up). */
function LinkedCodeCheck({ token, email, onAccepted }: LinkedCodeCheckProps) {
  const reject = useRejectCode(email);
  const check = useQuery({
    queryKey: queryKeys.resetCode(token, email),
    queryFn: () => validatePasswordToken({ token, email }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const { isSuccess, isError, error } = check;
  useEffect(() => {
    if (isSuccess) onAccepted(token);
    else if (isError) void reject(error);
    // reject and onAccepted change with every render; the answer is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isSuccess, isError]);

  return (
    <AuthPanel title="Reset your password" subtitle={email ? `For ${email}.` : undefined}>
      <p
        role="status"
        className="flex min-h-5 items-center justify-center gap-2 text-sm text-gray-700"
      >
        <SpinnerIcon className="size-4 text-indigo-600" />
        Checking the code...
      </p>
    </AuthPanel>
  );
}

interface ResetCodeStepProps {
  email: string | undefined;
  onAccepted: (code: string) => void;
}

function ResetCodeStep({ email, onAccepted }: ResetCodeStepProps) {
  const reject = useRejectCode(email);
  const validate = useValidatePasswordToken({
    mutationConfig: {
      onSuccess: ({ message }, { token }) => {
        notifySuccess(message);
        onAccepted(token);
      },
    },
  });

  const onCode = async (token: string) => {
    try {
      await validate.mutateAsync({ token, email });
      return true;
    } catch (error) {
      await reject(error);
      return false;
    }
  };

  return (
    <AuthPanel
      title="Reset your password"
      subtitle={email ? `For ${email}.` : undefined}
      links={
        <>
          <NewCodeLink email={email} />
          <DevMailboxLink />
        </>
      }
    >
      <CodeEntry onCode={onCode} busyLabel="Checking the code..." />
    </AuthPanel>
  );
}

/** 'Request a new code', held back like 'Resend code' on the confirm screen. */
function NewCodeLink({ email }: { email: string | undefined }) {
  const readyAt = useResendReadyAt('reset', email, { countArrival: true });
  return (
    <ResendLink to={paths.auth.forgotPassword.getHref()} readyAt={readyAt}>
      Request a new code
    </ResendLink>
  );
}

interface NewPasswordFormProps {
  token: string;
  email: string | undefined;
}

function NewPasswordForm({ token, email }: NewPasswordFormProps) {
  const notifyAndNavigate = useNotifyAndNavigate();
  const reset = useResetPassword({
    mutationConfig: {
      onSuccess: ({ message }) =>
        notifyAndNavigate(message, paths.auth.login.getHref(), arriveAtLogin({ email })),
    },
  });
  const form = useZodForm(authSchema('resetPasswordSchema'), {
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = form.submit((values) =>
    reset.mutateAsync({ token, body: { ...values, email } }),
  );

  return (
    <AuthPanel
      title="Reset your password"
      subtitle="Choose a new password for your account."
      links={<NewCodeLink email={email} />}
    >
      <AuthForm
        form={form}
        onSubmit={onSubmit}
        submitLabel="Reset password"
        busyLabel="Resetting..."
      >
        <NewPasswordFields
          form={form}
          password={{ name: 'password', label: 'New Password' }}
          confirm={{ name: 'confirmPassword', label: 'Confirm New password' }}
        />
      </AuthForm>
    </AuthPanel>
  );
}
