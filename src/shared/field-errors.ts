/** One field's error in an error answer: `path` is dotted (`price`, `items.0.name`), '' for the body. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * An error answer's `errors` list from validation issues: one entry per field, in the order the
 * fields failed, each with its first issue's message (the API's shape, contract section 3). The
 * server builds it from fastify's and zod's issues; a client can read answers the same way.
 */
export function firstErrorPerField(issues: Iterable<FieldError>): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const issue of issues) {
    if (!seen.has(issue.path)) seen.set(issue.path, { path: issue.path, message: issue.message });
  }
  return [...seen.values()];
}
