import { useState, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import type { EmailOnlyInput } from '@shared/schemas/auth.js';
import { Button } from '@/components/ui/Button.js';
import { Countdown, Seconds } from '@/components/ui/Countdown.js';
import { FormSubmitButton, FormTextField } from '@/components/forms/FormField.js';
import { useZodForm } from '@/lib/forms/form.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { notifySuccess } from '@/lib/notify.js';
import { useCodeRejected } from '../hooks/code-rejected.js';
import { looksLikeEmail } from '../hooks/use-email-param.js';
import { useResendReadyAt, type CodePurpose } from '../hooks/use-resend-wait.js';
import { AuthPanel } from './AuthPanel.js';
import { CodeSentNotice } from './CodeSentNotice.js';
import { FormAlert } from './FormAlert.js';

interface EmailRequestFormProps {
  title: string;
  subtitle: string;
  submitLabel: string;
  busyLabel: string;
  /** Asks the server to e-mail a code (its hook notes the request, see use-resend-wait.ts). */
  request: (body: EmailOnlyInput) => Promise<{ message: string }>;
  /** Which code it asks for: the wait before asking again is per address and purpose. */
  purpose: CodePurpose;
  /** After the error toast. */
  onFailure?: () => unknown;
  /** Where the e-mailed code is typed, for an address. */
  codeScreen: (email: string) => string;
  initialEmail?: string | undefined;
  links: ReactNode;
}

/**
 * An e-mail field that asks for a code (resend confirmation, forgot password): the server's
 * message as a toast, the form cleared, and a pointer to where the code is typed. The submit button
 * waits a minute after a code was asked for the address in the field (or, while the field holds no
 * address, the one just sent to).
 */
export function EmailRequestForm({
  title,
  subtitle,
  submitLabel,
  busyLabel,
  request,
  purpose,
  onFailure,
  codeScreen,
  initialEmail = '',
  links,
}: EmailRequestFormProps) {
  const [sentTo, setSentTo] = useState<string>();
  // Sent back here because a code was refused: why, until a new code is asked for.
  const rejected = useCodeRejected();
  const form = useZodForm(authSchema('emailOnlySchema'), {
    defaultValues: { email: initialEmail },
  });
  const typed = useWatch({ control: form.control, name: 'email' }).trim().toLowerCase();
  const subject = looksLikeEmail(typed) ? typed : sentTo;
  // Only the address the screen was opened for can have been sent a code just before arrival.
  const readyAt = useResendReadyAt(purpose, subject, {
    countArrival: subject !== undefined && subject === initialEmail,
  });

  const onSubmit = form.submit(async (values) => {
    const { message } = await request(values);
    notifySuccess(message);
    form.reset({ email: '' });
    setSentTo(values.email.trim().toLowerCase());
  }, onFailure);

  return (
    <AuthPanel title={title} subtitle={subtitle} links={links}>
      <form noValidate onSubmit={onSubmit} onFocus={form.preload} className="space-y-6">
        {!sentTo && <FormAlert message={rejected} />}
        <FormTextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <Countdown
          until={readyAt}
          waiting={(secondsLeft) => (
            <Button type="submit" fullWidth disabled>
              {submitLabel} in <Seconds count={secondsLeft} />
            </Button>
          )}
        >
          <FormSubmitButton form={form} fullWidth busyLabel={busyLabel}>
            {submitLabel}
          </FormSubmitButton>
        </Countdown>
      </form>
      {sentTo && <CodeSentNotice to={codeScreen(sentTo)} />}
    </AuthPanel>
  );
}
