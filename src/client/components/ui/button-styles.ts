export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'destructive' | 'ghost';

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  primary:
    'bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-indigo-600 disabled:hover:bg-indigo-600',
  secondary:
    'bg-white text-gray-900 shadow-sm ring-1 ring-inset ring-gray-300 hover:bg-gray-50 focus-visible:outline-indigo-600',
  danger:
    'bg-white text-red-700 shadow-sm ring-1 ring-inset ring-red-200 hover:bg-red-50 focus-visible:outline-red-600',
  /** The button that confirms something that cannot be undone. */
  destructive:
    'bg-red-700 text-white shadow-sm hover:bg-red-600 focus-visible:outline-red-700 disabled:hover:bg-red-700',
  ghost: 'text-gray-700 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-indigo-600',
};

/** The classes of a button; links that look like buttons use them too. */
export const buttonClasses = (variant: ButtonVariant = 'primary', extra = '') =>
  [base, variants[variant], extra].filter(Boolean).join(' ');
