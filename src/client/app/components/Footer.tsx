import { env } from '@/lib/env.js';

/** The year and the 'Created by' credit (VITE_AUTHOR_NAME, VITE_AUTHOR_URL). */
export function Footer({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const dark = tone === 'dark';
  return (
    <footer className={dark ? 'bg-gray-900' : 'border-t border-gray-200 bg-white'}>
      <div
        className={`mx-auto flex max-w-7xl flex-col items-center justify-between gap-2 px-4 py-6 text-sm sm:flex-row sm:px-6 lg:px-8 ${
          dark ? 'text-gray-300' : 'text-gray-600'
        }`}
      >
        <p>© {new Date().getFullYear()} Stockroom</p>
        <p>
          Created by{' '}
          <a
            href={env.authorUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={`font-semibold underline underline-offset-2 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 ${
              dark
                ? 'text-white hover:text-indigo-200 focus-visible:outline-indigo-400'
                : 'text-indigo-700 hover:text-indigo-600 focus-visible:outline-indigo-600'
            }`}
          >
            {env.authorName}
          </a>
        </p>
      </div>
    </footer>
  );
}
