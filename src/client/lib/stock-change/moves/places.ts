import type { Product } from '@shared/schemas/products.js';
import type { QueuedChange } from '../pending.js';

export type Places = NonNullable<Product['locations']>;

/**
 * Where a product's stock is once this user's waiting changes are made: changes at a location
 * (none named: the default one) and moves of it, as the server will apply them. A place that
 * empties goes; one that fills is named by `pathOf`.
 */
export function placesWithPending(
  places: Places,
  productId: string,
  changes: readonly QueuedChange[],
  defaultId: string | undefined,
  pathOf: (id: string) => string,
): Places {
  const quantities = new Map(places.map((place) => [place.locationId, place.quantity]));
  const add = (id: string | undefined, amount: number) => {
    if (id !== undefined) quantities.set(id, (quantities.get(id) ?? 0) + amount);
  };
  for (const change of changes) {
    if (change.kind === 'receipt') {
      for (const line of change.lines) {
        if (line.productId === productId) add(change.locationId, line.quantity);
      }
    } else if (change.kind === 'move') {
      for (const line of change.lines) {
        if (line.productId !== productId) continue;
        add(line.from, -line.quantity);
        add(line.to, line.quantity);
      }
    } else if (change.kind === undefined && change.productId === productId) {
      const at = change.locationId ?? defaultId;
      if (change.count !== undefined && at !== undefined) quantities.set(at, change.count);
      else add(at, change.delta ?? 0);
    }
  }
  const known = new Map(places.map((place) => [place.locationId, place.path]));
  return [...quantities]
    .filter(([, quantity]) => quantity > 0)
    .map(([locationId, quantity]) => ({
      locationId,
      quantity,
      path: known.get(locationId) ?? pathOf(locationId),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
