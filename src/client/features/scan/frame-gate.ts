/** A code counts as gone once this many looks in a row missed it, and this long after the last. */
const GONE_AFTER_LOOKS = 3;
const GONE_AFTER_MS = 1_000;

interface Sighting {
  at: number;
  missed: number;
}

/**
 * Which codes have just come into the camera's view. A code held in front of the camera is seen
 * on every look but counts once, until it has left the frame (a look or two may miss a code that
 * is still there, when the hand shakes) or the user asks for it again.
 */
export class FrameGate {
  private readonly inView = new Map<string, Sighting>();

  /** The codes of this look that were not in view before it. */
  look(codes: readonly string[], now: number): string[] {
    const seen = new Set(codes);
    for (const [code, sighting] of this.inView) {
      if (seen.has(code)) continue;
      sighting.missed += 1;
      if (sighting.missed >= GONE_AFTER_LOOKS && now - sighting.at >= GONE_AFTER_MS) {
        this.inView.delete(code);
      }
    }
    const entered = [...seen].filter((code) => !this.inView.has(code));
    for (const code of seen) this.inView.set(code, { at: now, missed: 0 });
    return entered;
  }

  /** 'Again': whatever is in view counts once more. */
  forget() {
    this.inView.clear();
  }
}
