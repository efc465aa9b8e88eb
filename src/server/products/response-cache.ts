import { LRUCache } from 'lru-cache';

/**
 * What an entry costs beyond its key and body: the cache's own bookkeeping and the Buffer object.
 * Counted so that many small entries cannot outgrow the bound either.
 */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * Serialized answers of the product reads (list pages and single products), most recently used
 * kept, bounded in bytes: keys (two bytes a character in memory) and bodies both count. Keys carry
 * the owner's catalogue version (bumped in the transaction of every product write), so an entry is
 * never stale: after a write, requests look under the new version and the old entries age out.
 * That also holds with several server processes on one database: the version comes with the
 * request's session, which is read with the token on every request, or on SQLite whenever the
 * database has changed since (see SessionLookup).
 */
export class ResponseCache {
  /** Undefined when the budget is 0: nothing is kept and every read queries (the bench compares). */
  private readonly bodies: LRUCache<string, Buffer> | undefined;

  constructor(maxBytes = 32 * 1024 * 1024) {
    if (maxBytes <= 0) return;
    this.bodies = new LRUCache({
      maxSize: maxBytes,
      // One page never takes more than a quarter of the room.
      maxEntrySize: maxBytes / 4,
      sizeCalculation: (body, key) => body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES,
    });
  }

  static key(ownerId: string, catalogueVersion: number, query: object): string {
    return `${ownerId}:${catalogueVersion}:${JSON.stringify(query)}`;
  }

  /** Bytes the entries take, keys and overhead included. */
  get size(): number {
    return this.bodies?.calculatedSize ?? 0;
  }

  get(key: string): Buffer | undefined {
    return this.bodies?.get(key);
  }

  set(key: string, body: Buffer) {
    if (!this.bodies) return;
    // A small Buffer is often a slice of an 8 KB pool block shared with other allocations; kept
    // for long, it would hold the whole block. The cache keeps a copy of exactly its own bytes.
    let owned = body;
    if (body.byteLength !== body.buffer.byteLength) {
      owned = Buffer.allocUnsafeSlow(body.byteLength);
      body.copy(owned);
    }
    this.bodies.set(key, owned);
  }
}
