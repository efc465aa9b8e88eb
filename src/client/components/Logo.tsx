import { Link } from 'react-router';
import { paths } from '@/lib/paths.js';

/** The Stockroom mark and name. On dark backgrounds by default. */
function Logo({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  return (
    <span className="inline-flex items-center gap-2.5">
      <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-indigo-500" />
        <path
          d="M8 12.5 16 8l8 4.5v9L16 26l-8-4.5v-9Z"
          className="fill-none stroke-white"
          strokeWidth="2"
          strokeLinejoin="round"
        />
        <path d="M8 12.5 16 17l8-4.5M16 17v9" className="fill-none stroke-white" strokeWidth="2" />
      </svg>
      <span
        className={`text-lg font-bold tracking-tight ${tone === 'light' ? 'text-white' : 'text-gray-900'}`}
      >
        Stockroom
      </span>
    </span>
  );
}

/** The logo as the link to '/', on a dark background. */
export function LogoLink() {
  return (
    <Link
      to={paths.products.list.getHref()}
      className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-400"
    >
      <Logo />
    </Link>
  );
}
