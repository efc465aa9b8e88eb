import type { FieldValues, Path } from 'react-hook-form';
import { PASSWORD_HINT } from '@/lib/texts.js';
import { FormTextField, type FormBinding } from './FormField.js';

interface NewPasswordFieldsProps<T extends FieldValues, Output> {
  form: FormBinding<T, Output>['form'];
  /** The new password's field and label. */
  password: { name: Path<T>; label: string };
  /** The field that repeats it. */
  confirm: { name: Path<T>; label: string };
}

/**
 * A new password and the field that repeats it (sign-up, reset, change): the password rules under
 * the first, both 'new-password' so that a password manager offers to make one up and save it.
 * After a submit, a change of the password checks the confirmation again: the form re-validates
 * only the field that changed, and 'Passwords do not match' belongs to both.
 */
export function NewPasswordFields<T extends FieldValues, Output>({
  form,
  password,
  confirm,
}: NewPasswordFieldsProps<T, Output>) {
  const shared = { form, type: 'password', autoComplete: 'new-password' } as const;
  return (
    <>
      <FormTextField {...shared} {...password} hint={PASSWORD_HINT} deps={[confirm.name]} />
      <FormTextField {...shared} {...confirm} />
    </>
  );
}
