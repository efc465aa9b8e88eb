/**
 * A failure next to the form (a refused login, a rejected code), besides its toast: the toast
 * closes after 5 seconds, this stays until the next attempt. An alert, so it is announced.
 */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
      {message}
    </p>
  );
}
