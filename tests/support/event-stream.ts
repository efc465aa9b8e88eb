import http from 'node:http';
import { afterAll } from 'vitest';

interface StreamEvent {
  id: string | undefined;
  kind: string;
  data: unknown;
}

/** An open `GET /api/events` over real HTTP, its events parsed as they come. */
export interface EventStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as it came, for what the events do not show (comments, framing). */
  text(): string;
  events: StreamEvent[];
  /** Resolves with the first event (from `from` on) that matches, or rejects after `ms`. */
  next(match?: (event: StreamEvent) => boolean, ms?: number, from?: number): Promise<StreamEvent>;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export function openEventStream(
  baseUrl: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseUrl}/api/events`,
      { headers: { authorization: `Bearer ${token}`, ...headers } },
      (res) => {
        let body = '';
        let buffer = '';
        const events: StreamEvent[] = [];
        const waiters = new Set<() => void>();
        let endedResolve: () => void;
        const ended = new Promise<void>((done) => (endedResolve = done));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = new Map<string, string>();
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              const colon = line.indexOf(':');
              fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
            }
            if (!fields.has('data')) continue;
            events.push({
              id: fields.get('id'),
              kind: fields.get('event') ?? 'message',
              data: JSON.parse(fields.get('data')!),
            });
            for (const wake of waiters) wake();
          }
        });
        res.on('close', () => endedResolve());
        res.on('error', () => endedResolve());
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: () => body,
          events,
          ended,
          close: () => request.destroy(),
          next: (match = () => true, ms = 1_000, from = 0) =>
            new Promise((found, failed) => {
              const look = () => {
                const event = events.slice(from).find(match);
                if (!event) return false;
                waiters.delete(look);
                clearTimeout(timer);
                found(event);
                return true;
              };
              const timer = setTimeout(() => {
                waiters.delete(look);
                failed(new Error(`no matching event within ${ms} ms: ${JSON.stringify(events)}`));
              }, ms);
              if (!look()) waiters.add(look);
            }),
        });
      },
    );
    request.on('error', reject);
  });
}

/**
 * Opens streams on `baseUrl` for the calling test file, and closes them all once its tests are
 * done.
 */
export function eventStreamsOn(baseUrl: string) {
  const streams: EventStream[] = [];
  afterAll(() => streams.forEach((stream) => stream.close()));
  return async (token: string, headers?: Record<string, string>) => {
    const stream = await openEventStream(baseUrl, token, headers);
    streams.push(stream);
    return stream;
  };
}
