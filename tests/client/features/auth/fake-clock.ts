import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Fake timers and Date for the tests of this file, still moving with real time so that Testing
 * Library's polling (findBy…) works; pass `{ advanceTimers: vi.advanceTimersByTime }` to user-event.
 */
export function withFakeClock() {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** Lets time pass a second at a time, letting React render (and set the next timer) in between. */
export async function elapse(ms: number) {
  for (let left = ms; left > 0; left -= 1000) {
    await act(() => vi.advanceTimersByTimeAsync(Math.min(left, 1000)));
  }
}
