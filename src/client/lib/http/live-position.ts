/**
 * Where the server's event stream stood when the app's reads were answered (the `Live-Event-Id`
 * header of each signed-in read). The live stream opens from the earliest of them, so that a
 * change landing between a screen's first read and the stream's start is still sent.
 */
let earliest: number | undefined;

/** A read's position, from its header. */
export function notePosition(header: unknown) {
  if (typeof header !== 'string' || !/^[0-9]{1,15}$/.test(header)) return;
  const position = Number(header);
  if (earliest === undefined || position < earliest) earliest = position;
}

/** The earliest position read since the last call, as a Last-Event-ID; forgotten once taken. */
export function takePosition(): string | undefined {
  const taken = earliest;
  earliest = undefined;
  return taken === undefined ? undefined : String(taken);
}
