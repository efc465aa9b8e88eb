import type { AxiosError } from 'axios';
import { errorAnswerMessage, fieldErrorsOf, type FieldError } from '@shared/field-errors.js';
import { isChunkLoadError } from './lazy-import.js';
import { retryAfterSeconds } from './retry-after.js';

/** What every request that cannot reach the server ends with. */
const UNREACHABLE_MESSAGE = 'The server cannot be reached. Check your connection and try again.';

const isAxiosError = (error: unknown): error is AxiosError =>
  typeof error === 'object' &&
  error !== null &&
  'isAxiosError' in error &&
  error.isAxiosError === true;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Axios gives header names in lower case; a response built elsewhere may have none. */
const retryAfterOf = (headers: unknown) =>
  isRecord(headers) ? (headers['retry-after'] ?? headers['Retry-After']) : undefined;

/**
 * The text to show for a failed call: the response's `message`, else the message
 * of the first entry of its `errors` list; otherwise a plain description of what went wrong.
 */
export function getErrorMessage(error: unknown): string {
  if (isAxiosError(error)) {
    if (error.response) {
      // A 429 too: its wait is shown apart (getRateLimitWait), on the form's submit button.
      return (
        errorAnswerMessage(error.response.data) ?? `The request failed (${error.response.status})`
      );
    }
    return UNREACHABLE_MESSAGE;
  }
  // The app's own code on demand (lib/lazy-import.ts): offline, it is the same lost connection.
  if (isChunkLoadError(error)) {
    return navigator.onLine
      ? 'This part of the app could not be loaded. Reload the page to try again.'
      : UNREACHABLE_MESSAGE;
  }
  // A zod error: the server answered with a shape we do not expect.
  if (isRecord(error) && Array.isArray(error.issues)) {
    return 'The server sent an unexpected response.';
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

/**
 * The field errors of a refused call (`errors`: `[{path, message}]`, `path` dotted as in
 * `lines.1.quantity`), for a form to show each at its field; none for any other failure.
 */
export const getFieldErrors = (error: unknown): FieldError[] =>
  isAxiosError(error) && error.response ? fieldErrorsOf(error.response.data) : [];

/** After a 429, the seconds its Retry-After asks the client to wait; otherwise undefined. */
export const getRateLimitWait = (error: unknown, now = Date.now()): number | undefined =>
  isAxiosError(error) && error.response?.status === 429
    ? retryAfterSeconds(retryAfterOf(error.response.headers), now)
    : undefined;

/** The HTTP status of a failed call, when the server answered. */
export const getErrorStatus = (error: unknown): number | undefined =>
  isAxiosError(error) ? error.response?.status : undefined;

/**
 * Whether a failure is the server's absence rather than its answer: no connection, no response, a
 * 5xx, or app code that could not be fetched. Trying again later may work; a 4xx will not.
 */
export function isUnreachable(error: unknown): boolean {
  if (isAxiosError(error)) return !error.response || error.response.status >= 500;
  return isChunkLoadError(error);
}
