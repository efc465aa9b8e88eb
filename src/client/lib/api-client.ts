import type { AxiosRequestConfig } from 'axios';
import { cachedImport } from './lazy-import.js';
import { preloadToasts } from './notify.js';

interface Schema<T> {
  parse: (data: unknown) => T;
}

/** A response schema, or a loader of one: shared zod schemas can stay out of a screen's chunk. */
export type SchemaSource<T> = Schema<T> | (() => Promise<Schema<T>>);

/**
 * The axios instance (lib/http/axios-instance.ts) loads with the first request, or earlier when a form
 * asks for it, rather than with every page: the auth screens render without it. Like every lazy
 * chunk it is retried once, and a failure is not kept (lib/lazy-import.ts).
 */
export const loadApiClient = cachedImport(() =>
  import('./http/axios-instance.js').then((m) => m.api),
);

/**
 * Any request may end in a toast: its code is fetched while the connection still works, but once
 * the page is idle, so that it does not compete with the screen's first data and pictures.
 */
const preloadToastsWhenIdle = () =>
  typeof requestIdleCallback === 'function'
    ? requestIdleCallback(preloadToasts, { timeout: 2_000 })
    : setTimeout(preloadToasts, 0);

const isRead = (config: AxiosRequestConfig) =>
  config.method === undefined || config.method.toUpperCase() === 'GET';

/**
 * Sends a request and checks the response body against its expected shape. A
 * read goes out as soon as the HTTP client is there, its schema loading meanwhile; a write waits
 * for its schema too, so that nothing is written that the app could then not read back.
 */
export async function apiRequest<T>(schema: SchemaSource<T>, config: AxiosRequestConfig) {
  preloadToastsWhenIdle();
  const parser = Promise.resolve(typeof schema === 'function' ? schema() : schema);
  // Read below; until then a failure to load it must not count as unhandled.
  parser.catch(() => undefined);
  const api = await loadApiClient();
  if (!isRead(config)) await parser;
  const response = await api.request(config);
  return (await parser).parse(response.data);
}
