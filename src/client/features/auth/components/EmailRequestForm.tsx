import { useState, type ReactNode } from 'react';
import type { EmailOnlyInput } from '@shared/schemas/auth.js';
import { Button } from '@/components/ui/Button.js';
import { FormTextField } from '@/components/ui/FormField.js';
import { useZodForm } from '@/lib/form.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { notifySuccess } from '@/lib/notify.js';
import { withEmail } from '../hooks/use-email-param.js';
import { AuthPanel } from './AuthPanel.js';
import { CodeSentNotice } from './CodeSentNotice.js';

interface EmailRequestFormProps {
  title: string;
  subtitle: string;
  submitLabel: string;
  busyLabel: string;
  /** Asks the server to e-mail a code. */
  request: (body: EmailOnlyInput) => Promise<{ message: string }>;
  /** After the error toast. */
  onFailure?: () => unknown;
  /** Where the e-mailed code is typed. */
  codeScreen: string;
  initialEmail?: string | undefined;
  links: ReactNode;
}

/**
 * An e-mail field that asks for a code (resend confirmation, forgot password): the server's
 * message as a toast, the form cleared, and a pointer to where the code is typed.
 */
export function EmailRequestForm({
  title,
  subtitle,
  submitLabel,
  busyLabel,
  request,
  onFailure,
  codeScreen,
  initialEmail = '',
  links,
}: EmailRequestFormProps) {
  const [sentTo, setSentTo] = useState<string>();
  const form = useZodForm(authSchema('emailOnlySchema'), {
    defaultValues: { email: initialEmail },
  });

  const onSubmit = form.submit(async (values) => {
    const { message } = await request(values);
    notifySuccess(message);
    form.reset({ email: '' });
    setSentTo(values.email);
  }, onFailure);

  return (
    <AuthPanel title={title} subtitle={subtitle} links={links}>
      <form noValidate onSubmit={onSubmit} onFocus={form.preload} className="space-y-6">
        <FormTextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <Button type="submit" fullWidth busy={form.formState.isSubmitting} busyLabel={busyLabel}>
          {submitLabel}
        </Button>
      </form>
      {sentTo && <CodeSentNotice to={withEmail(codeScreen, sentTo)} />}
    </AuthPanel>
  );
}
