/** A stored event, as live_events holds it. */
export interface EventRow {
  id: number;
  catalogue_id: string;
  kind: string;
  data: string;
}

/**
 * What a catalogue event means for the streams that get it. A membership notice is recorded in
 * the personal catalogue of the one user it concerns (its id is the user's) and names the other
 * catalogue in its data: that user joined it (`catalogue.updated`) or no longer belongs to it
 * (`catalogue.removed`). Every other event concerns the catalogue it is recorded in.
 */
interface Routing {
  /** The catalogue the event is about. */
  about: string;
  /** The user a membership notice is for; undefined for an event of the whole catalogue. */
  forUser: string | undefined;
}

export function routingOf(row: EventRow): Routing | undefined {
  if (row.kind !== 'catalogue.updated' && row.kind !== 'catalogue.removed') return undefined;
  let about = row.catalogue_id;
  try {
    const data = JSON.parse(row.data) as { catalogueId?: unknown };
    if (typeof data.catalogueId === 'string') about = data.catalogueId;
  } catch {
    // not ours to judge: the event goes as it was recorded
  }
  return { about, forUser: about === row.catalogue_id ? undefined : row.catalogue_id };
}

export const frame = (row: EventRow) => `id: ${row.id}\nevent: ${row.kind}\ndata: ${row.data}\n\n`;
export const RESET_FRAME = 'event: reset\ndata: {}\n\n';
export const HEARTBEAT_FRAME = ': heartbeat\n\n';
