import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/**
 * What an entry costs beyond its key and body: the cache's own bookkeeping and the Buffer object.
 * Counted so that many small entries cannot outgrow the bound either.
 */
const ENTRY_OVERHEAD_BYTES = 200;

/** Answers smaller than this gain too little from compression to be worth it. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

export type BodyEncoding = 'br' | 'gzip' | 'identity';

// Compressed once per entry, so a level well above the on-the-fly default pays off; async, so the
// event loop keeps serving while it runs.
const compressors: Record<Exclude<BodyEncoding, 'identity'>, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 6,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
};

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, else none. A q of 0
 * refuses an encoding; `*` stands for any not named.
 */
export function preferredEncoding(header: string | undefined): BodyEncoding {
  if (header === undefined) return 'identity';
  // Clients send a handful of distinct headers: each is parsed once, not on every read.
  let encoding = encodingOfHeader.get(header);
  if (encoding === undefined) {
    encoding = parseAcceptEncoding(header);
    encodingOfHeader.set(header, encoding);
  }
  return encoding;
}

/** Bounded: the header is the client's to choose. */
const encodingOfHeader = new LRUCache<string, BodyEncoding>({ max: 256 });

function parseAcceptEncoding(header: string): BodyEncoding {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const [best] = (['br', 'gzip'] as const)
    .filter((name) => weight(name) > 0)
    .sort((a, b) => weight(b) - weight(a));
  return best ?? 'identity';
}

/**
 * Serialized answers of the product reads, most recently used kept, bounded in bytes (keys and
 * bodies). Keys carry the catalogue's catalogue version, bumped in every product write's transaction,
 * so an entry is never stale, with one process or several: the version comes with the request's
 * session (see SessionLookup). Answers over COMPRESSION_THRESHOLD_BYTES are kept compressed, once
 * per encoding asked for, so a repeated read costs no compression.
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

  static key(catalogueId: string, catalogueVersion: number, query: object): string {
    return `${catalogueId}:${catalogueVersion}:${JSON.stringify(query)}`;
  }

  /** Bytes the entries take, keys and overhead included. */
  get size(): number {
    return this.bodies?.calculatedSize ?? 0;
  }

  get(key: string): Buffer | undefined {
    return this.bodies?.get(key);
  }

  /** Keeps the body; returns the Buffer kept (a copy, see below), or the body when none is. */
  set(key: string, body: Buffer): Buffer {
    if (!this.bodies) return body;
    // A small Buffer is often a slice of an 8 KB pool block shared with other allocations; kept
    // for long, it would hold the whole block. The cache keeps a copy of exactly its own bytes.
    let owned = body;
    if (body.byteLength !== body.buffer.byteLength) {
      owned = Buffer.allocUnsafeSlow(body.byteLength);
      body.copy(owned);
    }
    this.bodies.set(key, owned);
    return owned;
  }

  /**
   * The answer under `key` in the encoding the client takes: from the cache, or built (as JSON
   * bytes), compressed when large enough, kept and returned. `build` throwing keeps nothing.
   */
  async answer(
    key: string,
    accepted: BodyEncoding,
    build: () => Promise<Buffer>,
  ): Promise<{ body: Buffer; encoding: BodyEncoding }> {
    if (accepted !== 'identity') {
      const encoded = this.get(`${key}:${accepted}`);
      if (encoded) return { body: encoded, encoding: accepted };
    }
    let plain = this.get(key);
    const built = plain === undefined;
    plain ??= await build();
    if (accepted === 'identity' || plain.length < COMPRESSION_THRESHOLD_BYTES) {
      return { body: built ? this.set(key, plain) : plain, encoding: 'identity' };
    }
    // Only the compressed copy is kept: nearly every client asks for one.
    const body = await compressors[accepted](plain);
    return { body: this.set(`${key}:${accepted}`, body), encoding: accepted };
  }
}
