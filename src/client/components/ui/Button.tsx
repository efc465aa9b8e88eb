import type { ComponentProps, ReactNode } from 'react';
import { buttonClasses, type ButtonVariant } from './button-styles.js';
import { SpinnerIcon } from './Spinner.js';

interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  /** While busy the button is disabled and reads `busyLabel` (e.g. 'Saving...'). */
  busy?: boolean;
  busyLabel?: ReactNode;
  fullWidth?: boolean;
}

export function Button({
  variant = 'primary',
  busy = false,
  busyLabel,
  fullWidth = false,
  className = '',
  disabled,
  type = 'button',
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={buttonClasses(variant, `${fullWidth ? 'w-full' : ''} ${className}`.trim())}
      {...props}
    >
      {busy && <SpinnerIcon />}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
