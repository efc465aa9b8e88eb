import { useId, type Ref } from 'react';
import { controlClasses } from '@/components/ui/Field.js';

const INPUTS = {
  /** The account's password, asked again before a change that needs it. */
  password: { type: 'password', autoComplete: 'current-password', className: controlClasses },
  /** A code from the authenticator app, or a recovery code. */
  code: {
    autoComplete: 'one-time-code',
    spellCheck: false,
    className: `max-w-xs font-mono ${controlClasses}`,
  },
} as const;

/** A labelled field for a secret the owner types to prove it is them. */
export function SecretField({
  kind,
  label,
  value,
  onChange,
  error,
  inputRef,
  className,
}: {
  kind: keyof typeof INPUTS;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Why the value cannot be sent: shown under the field, which it marks invalid. */
  error?: string | undefined;
  /** The input, for the form to focus it when it is the first to fix. */
  inputRef?: Ref<HTMLInputElement> | undefined;
  /** The classes of the field's box (its width in a row of fields). */
  className?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const { className: inputClasses, ...input } = INPUTS[kind];
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <input
        id={id}
        ref={inputRef}
        {...input}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
        className={`mt-2 ${inputClasses}`}
      />
      {error && (
        <p id={errorId} className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
