import type { FastifyReply, FastifyRequest } from 'fastify';

/** What a client gone half-way through a download leaves behind: nothing to log. */
const isClientGone = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';

/**
 * The error handler of a file streamed to the request's client: a failure is logged as `what`
 * cut short; a client that went away is not a failure.
 */
export const logCutShort = (request: FastifyRequest, what: string) => (error: unknown) => {
  if (!isClientGone(error)) request.log.error({ err: error }, `${what} cut short`);
};

/** A CSV or a ZIP is saved under its name; a PDF opens in the browser. */
const KINDS = {
  csv: { type: 'text/csv; charset=utf-8', disposition: 'attachment' },
  zip: { type: 'application/zip', disposition: 'attachment' },
  pdf: { type: 'application/pdf', disposition: 'inline' },
} as const;

/** Answers a file of one of those kinds, named `filename`. */
export const sendFile = (
  reply: FastifyReply,
  kind: keyof typeof KINDS,
  filename: string,
  file: unknown,
) =>
  reply
    .type(KINDS[kind].type)
    .header('content-disposition', `${KINDS[kind].disposition}; filename="${filename}"`)
    .send(file);
