/**
 * How a keyboard scanner's code is told from a person's typing: by the run's shape, not by one
 * gap. A scanner types a run of code characters, then Enter or Tab, at a pace no person keeps (a
 * few ms a key; on a busy phone some keys arrive 40-90 ms late, others at once). A person's keys
 * come 80 ms or more apart on average, however quick a few of them are.
 */

/** The slowest average pace, per key, of a scanner's run (Enter or Tab included). */
const SCANNER_MEAN_GAP_MS = 60;
/** A gap this long ends a run: what came before it is not part of the next code. */
const PAUSE_MS = 250;
const MIN_LENGTH = 4;
/** What a code is made of: printable ASCII, no space. */
const CODE_CHARACTER = /^[!-~]$/;

/** A scan, a burst that looked like one but could not be (said to the user), or nothing. */
export type BurstResult = { scan: string } | { ignored: string } | undefined;

export class KeyboardBurst {
  private keys: string[] = [];
  private first = 0;
  private last = 0;

  /** Forgets the run (keys that went to a field). */
  reset() {
    this.keys = [];
  }

  /** A key pressed at `at` (ms): what the run makes of it. */
  key(key: string, at: number): BurstResult {
    if (this.keys.length > 0 && at - this.last > PAUSE_MS) this.keys = [];
    if (key === 'Enter' || key === 'Tab') {
      const result = this.verdict(at, this.keys.length);
      this.keys = [];
      return result;
    }
    if (key.length === 1) {
      if (this.keys.length === 0) this.first = at;
      this.keys.push(key);
      this.last = at;
    } else if (key !== 'Shift') {
      this.keys = [];
    }
    return undefined;
  }

  /**
   * Called when no key has come for a while (the caller's clock: a key's own time may be in
   * another's): a scanner's run that no Enter or Tab ended (a scanner set up without one) is said
   * to be ignored, once.
   */
  idle(): BurstResult {
    if (this.keys.length === 0) return undefined;
    const result = this.verdict(this.last, this.keys.length - 1);
    this.keys = [];
    return result && { ignored: this.text(result) };
  }

  /** The run ended at `end` after `gaps` gaps: a scan, an ignored burst, or a person's typing. */
  private verdict(end: number, gaps: number): BurstResult {
    if (this.keys.length < MIN_LENGTH || gaps === 0) return undefined;
    if ((end - this.first) / gaps > SCANNER_MEAN_GAP_MS) return undefined;
    const typed = this.keys.join('');
    return this.keys.every((key) => CODE_CHARACTER.test(key))
      ? { scan: typed }
      : { ignored: typed };
  }

  private text(result: NonNullable<BurstResult>) {
    return 'scan' in result ? result.scan : result.ignored;
  }
}

/** What the screen says of an ignored burst: the scanner's beep said it was read. */
export const ignoredScanText = (typed: string) => `Scan not read: “${typed}”. Scan it again.`;
