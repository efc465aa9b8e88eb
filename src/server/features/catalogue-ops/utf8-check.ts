/**
 * Checks that bytes arriving in chunks are UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF), and on which line the first byte that is not stands: line breaks are
 * CRLF, LF or CR, as in csv-import.ts. A character cut between two chunks is fine.
 */
export class Utf8Check {
  /** Line of the byte being read (1 for the first). */
  private line = 1;
  private afterCr = false;
  /** Continuation bytes the current character still needs, and the range of the next one. */
  private pending = 0;
  private low = 0x80;
  private high = 0xbf;

  /** The line of the first byte that is not UTF-8 in this chunk, or undefined when all are. */
  push(chunk: Uint8Array): number | undefined {
    for (const byte of chunk) {
      if (this.pending > 0) {
        if (byte < this.low || byte > this.high) return this.line;
        this.pending -= 1;
        this.low = 0x80;
        this.high = 0xbf;
        continue;
      }
      if (byte < 0x80) {
        if (byte === 0x0a) {
          if (!this.afterCr) this.line += 1;
        } else if (byte === 0x0d) {
          this.line += 1;
        }
        this.afterCr = byte === 0x0d;
        continue;
      }
      this.afterCr = false;
      if (byte >= 0xc2 && byte <= 0xdf) this.pending = 1;
      else if (byte >= 0xe0 && byte <= 0xef) {
        this.pending = 2;
        if (byte === 0xe0) this.low = 0xa0;
        if (byte === 0xed) this.high = 0x9f;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        this.pending = 3;
        if (byte === 0xf0) this.low = 0x90;
        if (byte === 0xf4) this.high = 0x8f;
      } else return this.line;
    }
    return undefined;
  }

  /** At the end: the line of a character left unfinished, or undefined. */
  end(): number | undefined {
    return this.pending > 0 ? this.line : undefined;
  }
}
