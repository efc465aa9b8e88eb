import { errorAnswerMessage } from '@shared/field-errors.js';
import { getErrorMessage } from '@/lib/api-error.js';

/** What the server's answer to a failed request says, as it says it. */
export function serverMessage(error: unknown): string {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  return errorAnswerMessage(data) ?? getErrorMessage(error);
}
