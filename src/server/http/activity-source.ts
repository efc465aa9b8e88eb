import type { FastifyRequest } from 'fastify';
import {
  ACTIVITY_MESSAGES,
  SOURCE_HEADER,
  SOURCE_HEADER_VALUES,
  type ActivitySource,
} from '../../shared/activity.js';
import { HttpError } from '../lib/http-error.js';

const HEADER = SOURCE_HEADER.toLowerCase();

/**
 * Where a write was made, as its activity entry keeps it: the screen that sent it
 * (`Stockroom-Source: scan | stepper | form | activity`), or 'api' without the header. Any other
 * value is a 400, so that a typo in a client shows at once instead of filing changes under 'api'.
 */
export function activitySource(request: FastifyRequest): ActivitySource {
  const value = request.headers[HEADER];
  if (value === undefined) return 'api';
  const found = SOURCE_HEADER_VALUES.find((source) => source === value);
  if (!found) throw new HttpError(400, ACTIVITY_MESSAGES.badSource);
  return found;
}
