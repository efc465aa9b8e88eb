import { ProductImages } from './product-images.js';
import type { ImageStorage, StoredFile } from '../../infra/images/storage.js';
import type { ProductRepository } from './repository.js';

/** Longer than any upload takes between writing its files and committing its row. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/** Keys per query: well under either engine's limit on bound parameters. */
const BATCH = 200;

/**
 * Removes image files that no product refers to. Requests clean up after themselves; what this
 * catches is what a crash or a lost disk leaves: files written for a row that never committed,
 * files a committed change no longer needed but could not remove, and unfinished temporaries;
 * and the pictures of deleted products once their delete can no longer be undone (7 days).
 * Files younger than `graceMs` stay, since they may belong to an upload still in flight in this
 * or another server process. Returns the names it removed.
 */
export async function sweepOrphanImages(
  storage: ImageStorage,
  repository: ProductRepository,
  now: number,
  graceMs = ORPHAN_GRACE_MS,
): Promise<string[]> {
  const removed: string[] = [];
  let batch: StoredFile[] = [];
  const sweep = async () => {
    const keys = batch.flatMap(({ name }) => ProductImages.keyOf(name) ?? []);
    const referenced = await repository.referencedImageKeys([...new Set(keys)], now);
    for (const { name } of batch) {
      const key = ProductImages.keyOf(name);
      if (key !== undefined && referenced.has(key)) continue;
      await storage.delete(name);
      removed.push(name);
    }
    batch = [];
  };
  for await (const file of storage.list()) {
    if (now - file.modifiedAt < graceMs) continue;
    batch.push(file);
    if (batch.length === BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  return removed;
}
