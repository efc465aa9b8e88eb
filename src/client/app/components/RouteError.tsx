import { buttonClasses } from '@/components/ui/button-styles.js';

/** What a route shows when it cannot load (a new release replaced its code, a crash). */
export function RouteError() {
  return (
    <main className="grid min-h-full place-items-center bg-gray-100 px-6 py-24">
      <div className="text-center">
        <h1 className="text-3xl font-bold tracking-tight text-gray-900">Something went wrong</h1>
        <p className="mt-4 text-gray-600">
          This screen could not be shown. Reloading usually fixes it.
        </p>
        <button
          type="button"
          className={buttonClasses('primary', 'mt-8')}
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </div>
    </main>
  );
}
