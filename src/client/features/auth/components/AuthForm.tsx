import type { FormEventHandler, ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { FormSubmitButton, type FormBinding } from '@/components/forms/FormField.js';

interface AuthFormProps<T extends FieldValues, Output> {
  form: FormBinding<T, Output>['form'] & { preload: () => void };
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  /** What the submit button reads while the form is sent ('Logging in...'). */
  busyLabel: string;
  /** The fields, and whatever stands between them and the submit button. */
  children: ReactNode;
}

/**
 * The form of an auth screen: validated by the app (noValidate), its code fetched as soon as the
 * user starts on it, sent with the full-width button at its end.
 */
export function AuthForm<T extends FieldValues, Output>({
  form,
  onSubmit,
  submitLabel,
  busyLabel,
  children,
}: AuthFormProps<T, Output>) {
  return (
    <form noValidate onSubmit={onSubmit} onFocus={form.preload} className="space-y-6">
      {children}
      <FormSubmitButton form={form} fullWidth busyLabel={busyLabel}>
        {submitLabel}
      </FormSubmitButton>
    </form>
  );
}
