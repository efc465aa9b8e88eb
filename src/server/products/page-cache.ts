/**
 * Serialized list pages, most recently used kept, bounded in bytes. Keys carry the owner's
 * catalogue version (bumped in the transaction of every product write), so an entry is never
 * stale: after a write, requests look under the new version and the old entries age out.
 * That also holds with several server processes on one PostgreSQL database, because the version
 * is read from the database on every request, in the same query that checks the token.
 */
export class PageCache {
  // Bytes, not strings: the body goes out as it is, with no UTF-8 encoding per request.
  private readonly pages = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  static key(ownerId: string, catalogueVersion: number, query: object): string {
    return `${ownerId}:${catalogueVersion}:${JSON.stringify(query)}`;
  }

  get(key: string): Buffer | undefined {
    const page = this.pages.get(key);
    if (page !== undefined) {
      // Re-insert so that Map order is least recently used first.
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: Buffer) {
    if (page.length > this.maxBytes / 4) return;
    this.delete(key);
    this.pages.set(key, page);
    this.bytes += page.length;
    for (const oldest of this.pages.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  private delete(key: string) {
    const page = this.pages.get(key);
    if (page === undefined) return;
    this.pages.delete(key);
    this.bytes -= page.length;
  }
}
