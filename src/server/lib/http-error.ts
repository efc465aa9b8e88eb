import { firstErrorPerField, type FieldError } from '../../shared/field-errors.js';

/** An error whose status and message are safe to show the client as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (message: string) => new HttpError(404, message);
export const unauthorized = (message: string) => new HttpError(401, message);

/**
 * A 400 for input checked outside fastify's validator (multipart fields, cursors), in the same
 * shape: the first failing field's message on top, then one entry per field.
 */
export class ValidationError extends HttpError {
  constructor(readonly errors: FieldError[]) {
    super(400, errors[0]?.message ?? 'Invalid input');
    this.name = 'ValidationError';
  }

  /** One entry per field, first issue wins, in the order zod reported them. */
  static fromIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
    return new ValidationError(
      firstErrorPerField(
        issues.map(({ path, message }) => ({ path: path.map(String).join('.'), message })),
      ),
    );
  }
}
