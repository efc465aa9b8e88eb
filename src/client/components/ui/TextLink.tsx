import { Link, type LinkProps } from 'react-router';

/** An in-app link in the accent colour, for light backgrounds. */
export function TextLink({ className = '', ...props }: LinkProps) {
  return (
    <Link
      className={`font-semibold text-indigo-700 hover:text-indigo-600 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${className}`}
      {...props}
    />
  );
}
