/** One field's error in an error answer: `path` is dotted (`price`, `items.0.name`), '' for the body. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * An error answer's `errors` list from validation issues: one entry per field, in the order the
 * fields failed, each with its first issue's message (the API's 400 shape). The
 * server builds it from fastify's and zod's issues; a client can read answers the same way.
 */
export function firstErrorPerField(issues: Iterable<FieldError>): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const issue of issues) {
    if (!seen.has(issue.path)) seen.set(issue.path, { path: issue.path, message: issue.message });
  }
  return [...seen.values()];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isFieldError = (value: unknown): value is FieldError =>
  isRecord(value) && typeof value.path === 'string' && typeof value.message === 'string';

/** An error answer's `errors` list as a client reads it back: its well-formed entries, in order. */
export function fieldErrorsOf(answer: unknown): FieldError[] {
  return isRecord(answer) && Array.isArray(answer.errors)
    ? answer.errors.filter(isFieldError).map(({ path, message }) => ({ path, message }))
    : [];
}

/**
 * What an error answer says: its `message`, else the message
 * of its first field error (the first field that failed). Undefined for a body of another shape.
 */
export function errorAnswerMessage(answer: unknown): string | undefined {
  if (isRecord(answer) && typeof answer.message === 'string' && answer.message !== '') {
    return answer.message;
  }
  return fieldErrorsOf(answer)[0]?.message;
}
