import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DatabaseHandle } from '../../infra/db/handle.js';
import { frame, routingOf, type EventRow } from './events.js';
import { memberships, type Start } from './replay.js';
import {
  rememberReplayed,
  send,
  wasReplayed,
  type Stream,
  type StreamRegistry,
} from './streams.js';

/** Writes between turns of the event loop in a fan-out: 1,000 streams never block it long. */
const WRITES_PER_TURN = 200;

/**
 * Writes events to the streams that carry them. Its methods run in the hub's delivery queue, one
 * after another, so each stream gets events in order.
 */
export class FanOut {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly streams: StreamRegistry,
  ) {}

  /**
   * Runs in the delivery queue: the stream takes its catalogues, writes its replay, then what was
   * heard while it connected (neither twice), and from then on gets events as they are heard.
   */
  async goLive(stream: Stream, start: Start) {
    const pending = this.streams.takePending(stream);
    if (!this.streams.isOpen(stream)) return;
    this.streams.subscribe(stream, start.catalogues);
    const replayed = new Set<number>();
    for (const row of start.rows) {
      replayed.add(row.id);
      await this.writeEvent(stream, row);
    }
    for (const row of pending) {
      // Heard while connecting: it will not be heard again.
      const wasWritten = replayed.delete(row.id);
      if (wasWritten || row.id <= start.after || !stream.catalogues.has(row.catalogue_id)) continue;
      await this.writeEvent(stream, row);
    }
    // The replay read what was committed, which this process may hear of only after now.
    rememberReplayed(stream, [...replayed]);
  }

  async deliver(rows: EventRow[]) {
    let writes = 0;
    for (const raw of rows) {
      const row = { ...raw, id: Number(raw.id) };
      this.streams.hold(row);
      const streams = this.streams.ofCatalogue(row.catalogue_id);
      if (!streams) continue;
      const routing = routingOf(row);
      const text = frame(row);
      // A copy: a membership change made by this very event must not upset the walk.
      for (const stream of [...streams]) {
        if (wasReplayed(stream, row.id)) continue;
        await this.writeEvent(stream, row, routing, text);
        if (++writes % WRITES_PER_TURN === 0) await nextTurn();
      }
    }
  }

  /** Writes the text to every live stream. */
  async writeAll(text: string) {
    let writes = 0;
    for (const streams of this.streams.groups()) {
      for (const stream of streams) {
        if (stream.pending === null) send(stream, text);
        if (++writes % WRITES_PER_TURN === 0) await nextTurn();
      }
    }
  }

  /**
   * Writes one event of a catalogue the stream carries, and follows what it says of memberships:
   * a notice for someone else is not written; `catalogue.removed` ends the stream; a notice of
   * joining a catalogue reads the user's catalogues again first.
   */
  private async writeEvent(
    stream: Stream,
    row: EventRow,
    routing = routingOf(row),
    text = frame(row),
  ) {
    if (!this.streams.isOpen(stream)) return;
    if (!routing) return send(stream, text);
    if (routing.forUser !== undefined && routing.forUser !== stream.userId) return;
    if (row.kind === 'catalogue.removed') {
      // The stream ends after it: nothing more of that catalogue can reach it, and the client's
      // reconnect (after this event's id) reads the memberships afresh.
      send(stream, text);
      this.streams.end(stream);
      return;
    }
    if (routing.forUser !== undefined && !stream.catalogues.has(routing.about)) {
      await this.refreshMemberships(stream.userId);
    }
    send(stream, text);
  }

  /** A user joined a catalogue: their live streams carry what they belong to now. */
  private async refreshMemberships(userId: string) {
    const catalogues = await memberships(this.database, userId);
    for (const stream of this.streams.ofUser(userId)) {
      if (stream.pending === null) this.streams.subscribe(stream, catalogues);
    }
  }
}
