import type { Location } from '@shared/schemas/locations/locations.js';

/** A location with how deep it sits (0 at the top) and the units it and its sub-locations hold. */
export interface TreeRow extends Location {
  depth: number;
  unitsWithin: number;
}

/**
 * The tree as the API lists it (parents before children) with each location's depth and the
 * units held under it, its sub-locations' included.
 */
export function treeRows(locations: Location[]): TreeRow[] {
  const byId = new Map(locations.map((location) => [location.id, location]));
  const depth = new Map<string, number>();
  const within = new Map<string, number>();
  for (const location of locations) {
    const parent = location.parentId === null ? undefined : depth.get(location.parentId);
    depth.set(location.id, parent === undefined ? 0 : parent + 1);
    // Each location's own units count for it and every location above it.
    for (let at: Location | undefined = location; at;) {
      within.set(at.id, (within.get(at.id) ?? 0) + location.units);
      at = at.parentId === null ? undefined : byId.get(at.parentId);
    }
  }
  return locations.map((location) => ({
    ...location,
    depth: depth.get(location.id) ?? 0,
    unitsWithin: within.get(location.id) ?? 0,
  }));
}

/** The location and every location under it: where it cannot be moved. */
export function subtreeIds(locations: Location[], id: string): Set<string> {
  const found = new Set([id]);
  // Parents come before their children, so one pass finds every descendant.
  for (const location of locations) {
    if (location.parentId !== null && found.has(location.parentId)) found.add(location.id);
  }
  return found;
}
