import { IMPORT_MAX_CELLS, IMPORT_MAX_RECORD_BYTES } from '../../../shared/constants.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];

/** Why a record is refused, and the line it starts on. */
export interface BoundsBreach {
  line: number;
  reason: 'cells' | 'bytes';
}

/**
 * Watches CSV bytes as they arrive, before the parser, for a record that passes its bounds: more
 * than IMPORT_MAX_CELLS cells or IMPORT_MAX_RECORD_BYTES bytes. A parser holds a record whole until
 * it ends, so an unbounded one (ten million empty cells, a 10 MB line without a break) would cost
 * hundreds of megabytes, or seconds of CPU, before any check could refuse it.
 *
 * It follows RFC 4180 as csv-parse reads it: a quote opens a quoted field only at the start of a
 * field, where commas and line breaks are text and "" is a quote; outside, a comma ends a cell and
 * CRLF, LF or CR a record. Lines are counted as csv-import.ts counts them (every break, in quotes
 * too), so a breach names the line its record starts on.
 */
export class CsvBounds {
  private line = 1;
  private afterCr = false;
  /** Bytes of a leading BOM read so far (csv-parse drops it: a quote after it opens a field). */
  private bomRead = 0;
  private inQuotes = false;
  /** Inside quotes, a quote was just read: the field closes unless another follows. */
  private quoteSeen = false;
  private fieldStart = true;
  private recordStart = 0;
  private cells = 0;
  private bytes = 0;

  /** The first breach in this chunk, or undefined. */
  push(chunk: Uint8Array): BoundsBreach | undefined {
    for (const byte of chunk) {
      if (this.bomRead < BOM.length) {
        if (byte === BOM[this.bomRead]) {
          this.bomRead += 1;
          continue;
        }
        this.bomRead = BOM.length;
      }
      const breach = this.read(byte);
      if (breach) return breach;
    }
    return undefined;
  }

  private read(byte: number): BoundsBreach | undefined {
    const isBreak = byte === LF || byte === CR;
    const newLine = isBreak && !(byte === LF && this.afterCr);
    this.afterCr = byte === CR;
    if (this.inQuotes && this.quoteSeen) {
      this.quoteSeen = false;
      if (byte === QUOTE) return this.grow();
      this.inQuotes = false;
    } else if (this.inQuotes) {
      if (byte === QUOTE) this.quoteSeen = true;
      if (newLine) this.line += 1;
      return this.grow();
    }
    if (isBreak) {
      if (newLine) this.line += 1;
      this.cells = 0;
      this.bytes = 0;
      this.fieldStart = true;
      return undefined;
    }
    if (this.bytes === 0) {
      this.recordStart = this.line;
      this.cells = 1;
    }
    if (byte === COMMA) {
      this.fieldStart = true;
      this.cells += 1;
      if (this.cells > IMPORT_MAX_CELLS) return { line: this.recordStart, reason: 'cells' };
    } else {
      if (byte === QUOTE && this.fieldStart) this.inQuotes = true;
      this.fieldStart = false;
    }
    return this.grow();
  }

  private grow(): BoundsBreach | undefined {
    this.bytes += 1;
    return this.bytes > IMPORT_MAX_RECORD_BYTES
      ? { line: this.recordStart, reason: 'bytes' }
      : undefined;
  }
}
