import { V } from '../../shared/messages.js';
import { ValidationError } from './http-error.js';

/**
 * A page cursor over rows ordered by a numeric id (the stock history, the activity log): opaque
 * to clients, base64url of [id], the last row of the page before.
 */
export const encodeIdCursor = (id: number | string) =>
  Buffer.from(JSON.stringify([Number(id)])).toString('base64url');

/** The id a cursor names; a cursor this server did not write is a 400 naming `cursor`. */
export function decodeIdCursor(cursor: string): number {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const id = Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new ValidationError([{ path: 'cursor', message: V.cursorInvalid }]);
  }
  return id;
}
