/**
 * Whether an error means "the database cannot be reached right now" rather than "this request is
 * wrong": the connection was refused, dropped or timed out, the server is restarting, or (SQLite)
 * another process held the write lock past the busy timeout. Such requests get a 503 with
 * Retry-After instead of a 500, so that a client knows to try again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) return true;
    if (UNAVAILABLE_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01-57P03 (shutting down, crashed, not
 * accepting connections yet), 53300 (too many connections); the socket errors of a lost or refused
 * connection; SQLite's busy and locked results.
 */
const UNAVAILABLE_CODES =
  /^(08...|57P0[123]|53300|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|SQLITE_BUSY.*|SQLITE_LOCKED.*)$/;

/** What node-postgres says when a connection ends under it, or none can be had in time. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/;

/**
 * What a unique index's refusal names, from either engine's error: PostgreSQL's unique_violation
 * names the index; SQLite's message names the index or its columns. Undefined for any other error.
 */
export function uniqueViolation(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505') return String(constraint);
    if (code === 'SQLITE_CONSTRAINT_UNIQUE') return current.message;
    current = current.cause;
  }
  return undefined;
}
