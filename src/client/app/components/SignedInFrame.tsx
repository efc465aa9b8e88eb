import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LogoLink } from '@/components/Logo.js';
import { Toaster } from '@/components/Toaster.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { paths } from '@/lib/paths.js';
import { useMediaQuery } from '@/lib/use-media-query.js';
import { Footer } from './Footer.js';
import { SkipLink } from './SkipLink.js';

interface SignedInFrameProps {
  /** The header's right side: the user menu once the user is known. */
  account?: ReactNode;
  /** The catalogue switcher and what goes with it, once the user is known. */
  catalogue?: ReactNode;
  children: ReactNode;
}

/** Tailwind's `sm`. */
const WIDE = '(min-width: 640px)';

/**
 * The signed-in screens' frame: header, main and footer. It shows before the current user is known
 * too (the page the build writes, the wait for the user), so that only the main part changes.
 */
export function SignedInFrame({ account, catalogue, children }: SignedInFrameProps) {
  // From `sm` up the switcher sits beside the logo; on a phone, in a row of its own under it,
  // there from the first paint so that nothing moves when it fills.
  const wide = useMediaQuery(WIDE);
  const catalogueId = useCatalogueRef();
  const scan = (
    <Link
      to={paths.scan.getHref(undefined, catalogueId)}
      className="shrink-0 rounded-md px-2 py-1 text-sm font-semibold text-white hover:bg-gray-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
    >
      Scan
    </Link>
  );
  return (
    <div className="flex min-h-full flex-col bg-gray-100">
      {/* Header and main fill at least the screen, so that the footer starts below the fold: when
          a spinner gives way to a long grid, the footer is not pushed off screen (a layout shift,
          measured by e2e/screens.spec.ts). */}
      <div className="flex min-h-svh flex-col">
        <SkipLink />
        <header className="bg-gray-900 shadow">
          <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
            {/* The wordmark never shrinks: the greeting beside it is cut short instead. */}
            <div className="flex shrink-0 items-center gap-4 sm:min-w-0 sm:shrink">
              <LogoLink />
              {wide && catalogue}
            </div>
            <div className="flex min-w-0 items-center gap-2 sm:gap-4">
              {wide && scan}
              {account}
            </div>
          </div>
          {/* A phone's second row: the catalogue, and Scan at its end, clear of the wordmark. */}
          <div className="flex h-10 items-center gap-2 border-t border-white/10 px-2 sm:hidden">
            {!wide && catalogue}
            {!wide && <div className="ml-auto">{scan}</div>}
          </div>
        </header>
        <main
          id="main"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 focus:outline-none sm:px-6 lg:px-8 lg:py-10"
        >
          {children}
        </main>
      </div>
      <Footer />
      <Toaster />
    </div>
  );
}
