interface SpinnerProps {
  /** What is loading, for screen readers. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const sizes = { sm: 'size-4', md: 'size-8', lg: 'size-12' };

export function SpinnerIcon({ className = 'size-4' }: { className?: string }) {
  return (
    <svg className={`animate-spin ${className}`} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle className="opacity-25" cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" />
      <path className="opacity-75" fill="currentColor" d="M4 12a8 8 0 0 1 8-8v4a4 4 0 0 0-4 4H4Z" />
    </svg>
  );
}

function Spinner({ label = 'Loading...', size = 'md', className = '' }: SpinnerProps) {
  return (
    <div role="status" className={`flex items-center justify-center text-indigo-600 ${className}`}>
      <SpinnerIcon className={sizes[size]} />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** A spinner in the middle of a screen or section that is loading. */
export function PageSpinner({ label }: { label?: string }) {
  return <Spinner label={label} size="lg" className="min-h-64 py-16" />;
}
