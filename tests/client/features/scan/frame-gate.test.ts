import { describe, expect, it } from 'vitest';
import { FrameGate } from '@/features/scan/frame-gate.js';

describe('FrameGate', () => {
  it('counts a code held in view once, and again once it has left the frame', () => {
    const gate = new FrameGate();
    expect(gate.look(['A'], 0)).toEqual(['A']);
    expect(gate.look(['A'], 150)).toEqual([]);
    expect(gate.look(['A'], 5_000)).toEqual([]);
    // A look or two that miss it (a shaking hand) do not make it new.
    expect(gate.look([], 5_150)).toEqual([]);
    expect(gate.look(['A'], 5_300)).toEqual([]);
    for (const at of [5_450, 5_600, 5_750]) expect(gate.look([], at)).toEqual([]);
    // Three misses but under a second: still there.
    expect(gate.look(['A'], 5_900)).toEqual([]);
    for (const at of [6_000, 6_500, 7_000]) gate.look([], at);
    expect(gate.look(['A'], 7_150)).toEqual(['A']);
  });

  it('counts a second code beside the first, and everything in view after forget()', () => {
    const gate = new FrameGate();
    expect(gate.look(['A'], 0)).toEqual(['A']);
    expect(gate.look(['A', 'B', 'B'], 150)).toEqual(['B']);
    gate.forget();
    expect(gate.look(['A', 'B'], 300)).toEqual(['A', 'B']);
  });
});
