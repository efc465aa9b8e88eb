import { useId, type ComponentProps, type ReactNode } from 'react';

interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  id?: string | undefined;
  className?: string | undefined;
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * A labelled form control with its hint and error, tied together for assistive technology: the
 * label names the control; the hint and the error describe it; an error marks it invalid.
 */
function Field({ label, error, hint, id, className, children }: FieldProps) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={controlId} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <div className="mt-2">
        {children({
          id: controlId,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy || undefined,
        })}
      </div>
      {hint && (
        <p id={hintId} className="mt-2 text-sm text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A text control's look, without its width: for a small field in a row of controls. */
export const inlineControlClasses =
  'rounded-lg border-0 bg-white px-3 py-2 text-base text-gray-900 shadow-sm ring-1 ring-inset ring-gray-300 placeholder:text-gray-500 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none disabled:bg-gray-50 disabled:text-gray-600 aria-invalid:ring-red-500 aria-invalid:focus:ring-red-600 sm:text-sm/6';

/** A form field's control, as wide as its form. */
export const controlClasses = `block w-full ${inlineControlClasses}`;

type FieldOwnProps = Omit<FieldProps, 'children'>;
export type TextFieldProps = FieldOwnProps &
  Omit<ComponentProps<'input'>, 'id' | 'className'> & {
    /** A unit shown inside the field, before the value (e.g. '$'). */
    adornment?: string | undefined;
  };
export type TextAreaFieldProps = FieldOwnProps &
  Omit<ComponentProps<'textarea'>, 'id' | 'className'>;

export function TextField({
  label,
  error,
  hint,
  id,
  className,
  adornment,
  ...props
}: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) =>
        adornment ? (
          <div className="relative">
            {/* Decoration: the label (and its hint) say the unit to assistive technology. */}
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 left-0 flex items-center pl-3 text-base text-gray-600 sm:text-sm/6"
            >
              {adornment}
            </span>
            <input className={`${controlClasses} pl-7`} {...props} {...control} />
          </div>
        ) : (
          <input className={controlClasses} {...props} {...control} />
        )
      }
    </Field>
  );
}

export function TextAreaField({ label, error, hint, id, className, ...props }: TextAreaFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => <textarea className={controlClasses} rows={4} {...props} {...control} />}
    </Field>
  );
}
