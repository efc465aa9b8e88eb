import { Outlet } from 'react-router';
import { LogoLink } from '@/components/Logo.js';
import { Toaster } from '@/components/Toaster.js';
import { Footer } from '@/app/components/Footer.js';

/** The auth layout (under /auth): dark, full height, the logo and the auth screen. */
export function AuthLayout() {
  return (
    <div data-layout="auth" className="flex min-h-full flex-col bg-gray-900">
      {/* Header and main fill at least the screen, so that the footer starts below the fold and a
          long form replacing its spinner does not push it off screen (a layout shift). */}
      <div className="flex min-h-svh flex-col">
        <header className="flex justify-center px-4 pt-12 pb-8">
          <LogoLink />
        </header>
        <main id="main" className="mx-auto w-full max-w-md flex-1 px-4 pb-12">
          <Outlet />
        </main>
      </div>
      <Footer tone="dark" />
      <Toaster />
    </div>
  );
}
