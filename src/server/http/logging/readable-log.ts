import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from './log-redaction.js';

/**
 * The development log: one readable line per entry instead of pino's JSON (pino-pretty is not a
 * dependency). Production keeps JSON lines for a log store.
 */

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  err?: { message?: string; stack?: string };
  /** Fields of the per-request line (see logApiRequests). */
  method?: string;
  url?: string;
  statusCode?: number;
  ms?: number;
}

const LABELS: Record<number, string> = { 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

const clock = (time: number | undefined) => new Date(time ?? Date.now()).toTimeString().slice(0, 8);

/** One pino entry as text: `12:04:31 POST /api/auth/login 200 18 ms`, `12:04:32 WARN ...`. */
function formatEntry(entry: Entry): string {
  const time = clock(entry.time);
  if (entry.method && entry.url && entry.statusCode !== undefined) {
    const line = `${time} ${entry.method} ${entry.url} ${entry.statusCode} ${entry.ms ?? 0} ms`;
    return entry.err?.message ? `${line}: ${entry.err.message}` : line;
  }
  const label = LABELS[entry.level ?? 30];
  const parts = [time, label, entry.msg].filter(Boolean).join(' ');
  if (!entry.err) return parts;
  // An error's stack says where; a warning's message is enough.
  const detail = (entry.level ?? 30) >= 50 ? entry.err.stack : entry.err.message;
  return detail ? `${parts}: ${detail}` : parts;
}

/** A pino destination that writes each JSON entry it gets to `out` as one readable line. */
export function readableLogStream(out: { write(text: string): unknown }) {
  return {
    write(line: string) {
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch {
        out.write(line);
        return;
      }
      out.write(`${formatEntry(entry)}\n`);
    },
  };
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/**
 * Fastify's request log lines in development: one entry per API request once it is answered,
 * instead of two ('incoming request', 'request completed'), with the URL redacted as in
 * production. The app and its static assets get none: a page load would print a line per file.
 */
export class ApiRequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    if (!isApi(request.url)) return;
    const entry = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...entry, err: error }, 'request errored');
    else reply.log.info(entry, 'request');
  }
}
