import type { ImportError } from '@shared/schemas/catalogue.js';

/** The rows a checked CSV file was refused for, each at its line and column. */
export function ImportErrors({ id, errors }: { id: string; errors: readonly ImportError[] }) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-base font-semibold text-gray-900">
        Errors
      </h2>
      <p className="text-sm text-gray-600">
        Fix these rows in the file, save it, and choose it again.
      </p>
      <ul className="divide-y divide-gray-200 rounded-xl text-sm ring-1 ring-gray-200">
        {errors.map((error, index) => (
          <li key={index} className="flex flex-wrap gap-x-3 gap-y-0.5 px-3 py-2">
            <span className="shrink-0 font-semibold text-gray-900 tabular-nums">
              Line {error.line}
            </span>
            <code className="shrink-0 text-gray-700">{error.path}</code>
            <span className="min-w-0 basis-full wrap-anywhere text-red-800 sm:basis-auto">
              {error.message}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
