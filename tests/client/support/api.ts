import type { AxiosRequestConfig } from 'axios';
import { vi } from 'vitest';

type Handler = (config: AxiosRequestConfig) => unknown;

/**
 * Stands in for lib/api-client's apiRequest: the fetchers build their real requests, `handler`
 * answers them, and the answer is still checked against the fetcher's response schema.
 */
export const api = { handler: vi.fn<Handler>() };

interface Schema<T> {
  parse: (data: unknown) => T;
}

export async function fakeApiRequest<T>(
  schema: Schema<T> | (() => Promise<Schema<T>>),
  config: AxiosRequestConfig,
): Promise<T> {
  const data = await api.handler(config);
  const parser = typeof schema === 'function' ? await schema() : schema;
  return parser.parse(data);
}

/** What axios rejects with when the server answers with an error status. */
export const httpError = (status: number, data: unknown) =>
  Object.assign(new Error(`Request failed with status code ${status}`), {
    isAxiosError: true,
    response: { status, data },
  });

/** A promise the test settles when it wants: to look at a screen while a request is pending. */
export function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The requests the app sent, as [method, url, data]. */
export const sent = () =>
  api.handler.mock.calls.map(([config]) => [config.method ?? 'GET', config.url, config.data]);
