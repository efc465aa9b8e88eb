import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { firstErrorPerField } from '../../shared/field-errors.js';
import { M } from '../../shared/messages.js';
import { isDatabaseUnavailable } from '../infra/db/errors.js';
import { HttpError, ValidationError } from '../lib/http-error.js';

const isObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Seconds a client is asked to wait while the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Fastify's validation issues as field errors; the first one becomes `message`. */
const fieldErrors = (issues: { instancePath: string; message?: string | undefined }[]) =>
  firstErrorPerField(
    issues.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
      message: issue.message ?? 'Invalid input',
    })),
  );

const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, M.badJson],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, M.bodyTooLarge],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, M.unsupportedMedia],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
  FST_ERR_CTP_INVALID_TYPE: [415, M.unsupportedMedia],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, M.unsupportedMedia],
  FST_REQ_FILE_TOO_LARGE: [413, M.imageTooLarge],
  FST_FILES_LIMIT: [400, M.oneImageOnly],
  FST_PARTS_LIMIT: [400, 'Too many form fields'],
  FST_FIELDS_LIMIT: [400, 'Too many form fields'],
  FST_PROTO_VIOLATION: [400, 'Invalid form field name'],
};

/**
 * Every error leaves as `{message, errors?}`. A database that cannot be reached
 * is a 503 with Retry-After; anything else unexpected is logged and answered with a generic 500
 * that carries no internals.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // An error answers JSON, whatever the route had set for its success (a PDF, a CSV file).
    reply.removeHeader('content-type').removeHeader('content-disposition');
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrors(error.validation);
      const first = errors[0]!;
      // A missing or non-object body fails at the root: say so plainly. An object failing there
      // (a rule over its fields together) gives the rule's own words.
      const noBody = error.validationContext === 'body' && !isObject(request.body);
      const message = first.path === '' && noBody ? M.bodyRequired : first.message;
      return reply.code(400).send({ message, errors: first.path === '' ? undefined : errors });
    }
    if (error instanceof HttpError) {
      const errors = error instanceof ValidationError ? error.errors : undefined;
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ message: error.message, errors });
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return reply.code(known[0]).send({ message: known[1] });
    if (error.statusCode === 429) {
      return reply.code(429).send({ message: M.tooManyRequests });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.code(error.statusCode).send({ message: error.message || 'Bad request' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: M.serviceUnavailable });
    }
    // A streamed answer whose client left before its first byte: nobody reads this one.
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') {
      request.log.info('the client left before the answer began');
      return reply.code(500).send({ message: M.internal });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ message: M.internal });
  });
}
