import { M } from '../../../../shared/messages.js';
import { HttpError } from '../../../lib/http-error.js';
import type { CodeCheck } from '../codes.js';

/** The answer to a code check that failed: 400, or 429 with Retry-After when a budget is spent. */
export function refuseUnlessOk(check: CodeCheck) {
  if (check.ok) return;
  if (check.reason === 'invalid') throw new HttpError(400, M.codeInvalid);
  throw new HttpError(429, M.tooManyCodeAttempts, { 'retry-after': String(check.retryAfter) });
}
