import type { ServerResponse } from 'node:http';
import type { EventRow } from './events.js';

/** One open stream: little more than its response and its catalogues, so thousands stay cheap. */
export interface Stream {
  userId: string;
  sessionId: string;
  res: ServerResponse;
  /** The catalogues whose events it carries: the user's memberships. */
  catalogues: Set<string>;
  /** Events that arrived while it was connecting (memberships, replay); null once it is live. */
  pending: EventRow[] | null;
  /**
   * Ids its replay wrote that this process had not yet heard of: when they are heard, they are
   * not written again. Kept for a few seconds, as an event is heard within one poll of its commit.
   */
  replayed?: { ids: Set<number>; until: number };
}

/** How long a stream's replayed ids are kept: far beyond the time to hear a committed event. */
const REPLAYED_KEPT_MS = 10_000;

/** Remembers the ids a stream's replay wrote that may still be heard. */
export function rememberReplayed(stream: Stream, ids: number[], now = Date.now()) {
  if (ids.length > 0) stream.replayed = { ids: new Set(ids), until: now + REPLAYED_KEPT_MS };
}

/** Whether the stream's replay already wrote this event; forgets the ids once they are old. */
export function wasReplayed(stream: Stream, id: number, now = Date.now()): boolean {
  const replayed = stream.replayed;
  if (!replayed) return false;
  if (now > replayed.until) {
    delete stream.replayed;
    return false;
  }
  return replayed.ids.delete(id);
}

/** Writes unless the stream has ended: a write after the end would be an 'error' event. */
export const send = (stream: Stream, text: string) => {
  if (!stream.res.writableEnded && !stream.res.destroyed) stream.res.write(text);
};

/**
 * The open streams of this process, found by user and by catalogue. Only this keeps the two
 * indexes and the count in step, so a stream is either in all of them or in none.
 */
export class StreamRegistry {
  private readonly byUser = new Map<string, Set<Stream>>();
  private readonly byCatalogue = new Map<string, Set<Stream>>();
  /** Streams reading their memberships and replay: they hold every event heard meanwhile. */
  private readonly connecting = new Set<Stream>();
  private open = 0;

  get size(): number {
    return this.open;
  }

  /** Takes in a stream that is connecting: it holds the events heard until it goes live. */
  add(stream: Stream) {
    let streams = this.byUser.get(stream.userId);
    if (!streams) this.byUser.set(stream.userId, (streams = new Set()));
    streams.add(stream);
    this.connecting.add(stream);
    this.open += 1;
  }

  /** Ends a stream and forgets it at once, so nothing is written to it after its end. */
  end(stream: Stream) {
    this.remove(stream);
    stream.res.end();
  }

  /** Ends every stream. */
  endAll() {
    for (const stream of this.all()) this.end(stream);
  }

  remove(stream: Stream) {
    const streams = this.byUser.get(stream.userId);
    if (!streams?.delete(stream)) return;
    this.open -= 1;
    if (streams.size === 0) this.byUser.delete(stream.userId);
    this.connecting.delete(stream);
    this.subscribe(stream, []);
  }

  isOpen(stream: Stream) {
    return this.byUser.get(stream.userId)?.has(stream) === true;
  }

  /** Makes the stream carry exactly these catalogues. */
  subscribe(stream: Stream, catalogues: Iterable<string>) {
    const wanted = new Set(catalogues);
    for (const id of stream.catalogues) {
      if (wanted.has(id)) continue;
      const streams = this.byCatalogue.get(id);
      streams?.delete(stream);
      if (streams?.size === 0) this.byCatalogue.delete(id);
    }
    for (const id of wanted) {
      if (stream.catalogues.has(id)) continue;
      let streams = this.byCatalogue.get(id);
      if (!streams) this.byCatalogue.set(id, (streams = new Set()));
      streams.add(stream);
    }
    stream.catalogues = wanted;
  }

  /** Holds an event for every stream still connecting. */
  hold(row: EventRow) {
    for (const stream of this.connecting) stream.pending?.push(row);
  }

  /** The stream is live from now on: hands over what it held while connecting. */
  takePending(stream: Stream): EventRow[] {
    const pending = stream.pending ?? [];
    stream.pending = null;
    this.connecting.delete(stream);
    return pending;
  }

  ofUser(userId: string): Iterable<Stream> {
    return this.byUser.get(userId) ?? [];
  }

  ofCatalogue(catalogueId: string): ReadonlySet<Stream> | undefined {
    return this.byCatalogue.get(catalogueId);
  }

  /** Each user's streams, as live sets: a stream removed meanwhile is skipped by the walk. */
  groups(): ReadonlySet<Stream>[] {
    return [...this.byUser.values()];
  }

  /** Every open stream, copied. */
  all(): Stream[] {
    return [...this.byUser.values()].flatMap((set) => [...set]);
  }
}
