import type { ReactNode } from 'react';

/** A load failure: the message in red, centred. */
export function ErrorMessage({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="px-4 py-16 text-center text-base font-medium text-red-700">
      {children}
    </div>
  );
}

/** Why a form's last try failed, under its fields; nothing while it has not. */
export function FormFailure({ message }: { message: string | undefined }) {
  return message ? (
    <p role="alert" className="text-sm font-medium text-red-700">
      {message}
    </p>
  ) : null;
}
