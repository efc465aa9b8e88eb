import { useId } from 'react';
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
  className,
}: {
  kind: keyof typeof INPUTS;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The classes of the field's box (its width in a row of fields). */
  className?: string;
}) {
  const id = useId();
  const { className: inputClasses, ...input } = INPUTS[kind];
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <input
        id={id}
        {...input}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`mt-2 ${inputClasses}`}
      />
    </div>
  );
}
