import { act, fireEvent, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTimeForLater } from '@/lib/use-time-for-later.js';

/** The page has loaded (jsdom's readyState is 'complete'): it settles 2 s later. */
const SETTLED_MS = 2_000;
const WITHOUT_A_PRESS_MS = 10_000;

describe('the time for code the first screen does not need', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

  it('comes once the page has settled and the user presses or types', () => {
    const { result } = renderHook(() => useTimeForLater());
    advance(SETTLED_MS);
    expect(result.current).toBe(false);
    act(() => void fireEvent.keyDown(window, { key: 'a' }));
    expect(result.current).toBe(true);
  });

  it('comes as the page settles when the user pressed before that', () => {
    const { result } = renderHook(() => useTimeForLater());
    act(() => void fireEvent.pointerDown(window));
    advance(SETTLED_MS - 1);
    expect(result.current).toBe(false);
    advance(1);
    expect(result.current).toBe(true);
  });

  it('comes a little after the page has settled without a press', () => {
    const { result } = renderHook(() => useTimeForLater());
    advance(SETTLED_MS + WITHOUT_A_PRESS_MS - 1);
    expect(result.current).toBe(false);
    advance(1);
    expect(result.current).toBe(true);
  });
});
