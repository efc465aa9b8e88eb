import { buttonClasses } from '@/components/ui/button-styles.js';
import { isChunkLoadError } from '@/lib/lazy-import.js';

/** What a route shows when it cannot load (offline, a new release replaced its code, a crash). */
export function RouteError({ error }: { error: unknown }) {
  const notLoaded = isChunkLoadError(error);
  return (
    <main className="grid min-h-full place-items-center bg-gray-100 px-6 py-24">
      <div role="alert" className="text-center">
        <h1 className="text-3xl font-bold tracking-tight text-gray-900">
          {notLoaded ? 'This screen could not be loaded' : 'Something went wrong'}
        </h1>
        <p className="mt-4 text-gray-600">
          {notLoaded
            ? 'Check your connection, then reload the page.'
            : 'This screen could not be shown. Reloading usually fixes it.'}
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
