import { useId, useState, type ComponentProps, type ReactNode } from 'react';

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
type SelectFieldProps = FieldOwnProps & Omit<ComponentProps<'select'>, 'id' | 'className'>;

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
        ) : props.type === 'password' ? (
          <PasswordInput label={label} {...props} {...control} />
        ) : (
          <input className={controlClasses} {...props} {...control} />
        )
      }
    </Field>
  );
}

/**
 * A password control with a Show / Hide button at its end, so that a long password can be checked
 * before it is sent (on a phone above all). Hidden again by a second press.
 */
function PasswordInput({ label, ...props }: ComponentProps<'input'> & { label: ReactNode }) {
  const [shown, setShown] = useState(false);
  const name = typeof label === 'string' ? label : 'password';
  return (
    <div className="relative">
      <input {...props} type={shown ? 'text' : 'password'} className={`${controlClasses} pr-16`} />
      <button
        type="button"
        aria-pressed={shown}
        aria-label={`Show ${name}`}
        onClick={() => setShown((value) => !value)}
        className="absolute inset-y-1 right-1 rounded-md px-2 text-xs font-semibold text-indigo-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {shown ? 'Hide' : 'Show'}
      </button>
    </div>
  );
}

/** A labelled choice: its options are the children. */
export function SelectField({
  label,
  error,
  hint,
  id,
  className,
  children,
  ...props
}: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => (
        <select className={controlClasses} {...props} {...control}>
          {children}
        </select>
      )}
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
