import type { FormEventHandler, ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { Card } from '@/components/ui/Card.js';
import { FormSubmitButton, type FormBinding } from '@/components/forms/FormField.js';
import { tabTitle } from '@/lib/texts.js';

interface SettingsFormProps<T extends FieldValues, Output> {
  title: string;
  description: string;
  form: FormBinding<T, Output>['form'];
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  /** The form's fields. */
  children: ReactNode;
}

/** A settings screen (profile, password): its form in a card, saved with the button at its end. */
export function SettingsForm<T extends FieldValues, Output>({
  title,
  description,
  form,
  onSubmit,
  submitLabel,
  children,
}: SettingsFormProps<T, Output>) {
  return (
    <Card className="px-6 py-8 sm:px-8">
      <title>{tabTitle(title)}</title>
      <h1 className="text-xl font-bold tracking-tight text-gray-900">{title}</h1>
      <p className="mt-1 text-sm text-gray-600">{description}</p>
      <div className="mt-8">
        <form noValidate onSubmit={onSubmit} className="space-y-6">
          {children}
          <div className="flex justify-end">
            <FormSubmitButton form={form} busyLabel="Saving...">
              {submitLabel}
            </FormSubmitButton>
          </div>
        </form>
      </div>
    </Card>
  );
}
