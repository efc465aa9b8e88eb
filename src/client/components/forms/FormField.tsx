import type { ComponentProps } from 'react';
import {
  get,
  useFormState,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import { Button } from '../ui/Button.js';
import { Countdown, Seconds } from '../ui/Countdown.js';
import {
  TextAreaField,
  TextField,
  type TextAreaFieldProps,
  type TextFieldProps,
} from '../ui/Field.js';

export type FormBinding<T extends FieldValues, Output> = {
  /** The react-hook-form the field belongs to. */
  form: Pick<UseFormReturn<T, unknown, Output>, 'control' | 'register'>;
  name: Path<T>;
};

/** The validation message of one field, shown under it. */
function useFieldError<T extends FieldValues, Output>({ form, name }: FormBinding<T, Output>) {
  const { errors } = useFormState({ control: form.control, name });
  const error: { message?: unknown } | undefined = get(errors, name);
  return typeof error?.message === 'string' ? error.message : undefined;
}

/**
 * A TextField registered in a react-hook-form, with its error. `deps` are fields checked again
 * whenever this one changes (once the form has been submitted), for a rule that spans both.
 */
export function FormTextField<T extends FieldValues, Output>({
  form,
  name,
  deps,
  ...props
}: FormBinding<T, Output> & { deps?: Path<T>[] } & Omit<
    TextFieldProps,
    'name' | 'error' | 'form'
  >) {
  const error = useFieldError({ form, name });
  return <TextField {...props} error={error} {...form.register(name, { deps })} />;
}

export function FormTextAreaField<T extends FieldValues, Output>({
  form,
  name,
  ...props
}: FormBinding<T, Output> & Omit<TextAreaFieldProps, 'name' | 'error' | 'form'>) {
  const error = useFieldError({ form, name });
  return <TextAreaField {...props} error={error} {...form.register(name)} />;
}

/**
 * The form's submit button: busy (disabled, reading `busyLabel`) while the form submits; after a
 * rate limit, disabled and reading 'Try again in 42 s' until the form's `retryAt` (useZodForm).
 */
export function FormSubmitButton<T extends FieldValues, Output>({
  form,
  ...props
}: { form: FormBinding<T, Output>['form'] & { retryAt?: number } } & Omit<
  ComponentProps<typeof Button>,
  'type' | 'busy' | 'form'
>) {
  const { isSubmitting } = useFormState({ control: form.control });
  return (
    <Countdown
      until={form.retryAt ?? 0}
      waiting={(secondsLeft) => (
        <Button {...props} type="submit" disabled>
          Try again in <Seconds count={secondsLeft} />
        </Button>
      )}
    >
      <Button {...props} type="submit" busy={isSubmitting} />
    </Countdown>
  );
}
