import type { AxiosRequestConfig } from 'axios';
import { cachedImport } from './lazy-import.js';
import { preloadToasts } from './notify.js';

interface Schema<T> {
  parse: (data: unknown) => T;
}

/** A response schema, or a loader of one: shared zod schemas can stay out of a screen's chunk. */
export type SchemaSource<T> = Schema<T> | (() => Promise<Schema<T>>);

/**
 * The axios instance (lib/axios-instance.ts) loads with the first request, or earlier when a form
 * asks for it, rather than with every page: the auth screens render without it. Like every lazy
 * chunk it is retried once, and a failure is not kept (lib/lazy-import.ts).
 */
export const loadApiClient = cachedImport(() => import('./axios-instance.js').then((m) => m.api));

/** Sends a request and checks the response body against its expected shape (spec section 5). */
export async function apiRequest<T>(schema: SchemaSource<T>, config: AxiosRequestConfig) {
  // Any request may end in a toast: have its code on the way while the connection still works.
  preloadToasts();
  const [api, parser] = await Promise.all([
    loadApiClient(),
    typeof schema === 'function' ? schema() : schema,
  ]);
  const response = await api.request(config);
  return parser.parse(response.data);
}
