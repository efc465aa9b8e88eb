/**
 * Serialized answers of the product reads (list pages and single products), most recently used
 * kept, bounded in bytes. Keys carry the owner's catalogue version (bumped in the transaction of
 * every product write), so an entry is never stale: after a write, requests look under the new
 * version and the old entries age out.
 * That also holds with several server processes on one database: the version comes with the
 * request's session, which is read with the token on every request, or on SQLite whenever the
 * database has changed since (see SessionLookup).
 */
export class ResponseCache {
  // Bytes, not strings: the body goes out as it is, with no UTF-8 encoding per request.
  private readonly bodies = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  static key(ownerId: string, catalogueVersion: number, query: object): string {
    return `${ownerId}:${catalogueVersion}:${JSON.stringify(query)}`;
  }

  get(key: string): Buffer | undefined {
    const body = this.bodies.get(key);
    if (body !== undefined) {
      // Re-insert so that Map order is least recently used first.
      this.bodies.delete(key);
      this.bodies.set(key, body);
    }
    return body;
  }

  set(key: string, body: Buffer) {
    if (body.length > this.maxBytes / 4) return;
    this.delete(key);
    this.bodies.set(key, body);
    this.bytes += body.length;
    for (const oldest of this.bodies.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  private delete(key: string) {
    const body = this.bodies.get(key);
    if (body === undefined) return;
    this.bodies.delete(key);
    this.bytes -= body.length;
  }
}
