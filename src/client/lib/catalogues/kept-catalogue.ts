/**
 * The catalogue a user last worked in, so that opening the app goes back to it: someone who works
 * in a team's catalogue should not land in their own empty one on every visit. Kept per browser,
 * with the user it belongs to; the list keeps it, and features/catalogues/last-catalogue returns
 * to it (loaded only when there is one to return to).
 */
const KEPT_CATALOGUE_KEY = 'stockroom.lastCatalogue';

export interface KeptCatalogue {
  userId: string;
  /** A shared catalogue's id; undefined for the personal one. */
  catalogueId?: string;
}

export function keptCatalogue(): KeptCatalogue | undefined {
  try {
    return JSON.parse(localStorage.getItem(KEPT_CATALOGUE_KEY) ?? 'null') ?? undefined;
  } catch {
    // Unreadable (or storage refused): as if nothing was kept.
    return undefined;
  }
}

/** The list of a catalogue was shown: it is the one to come back to. */
export function keepCatalogue(userId: string, catalogueId: string | undefined) {
  try {
    localStorage.setItem(KEPT_CATALOGUE_KEY, JSON.stringify({ userId, catalogueId }));
  } catch {
    // Private mode or a full storage: the app opens on the personal catalogue, as before.
  }
}
