import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { longestBlock } from './latency.js';

/**
 * Runs the main thread for `ms` of CPU time without a turn (CPU time, not wall time: on a loaded
 * machine a wall-clock spin gets a fraction of it).
 */
const spin = (ms: number) => {
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const until = cpu() + ms;
  while (cpu() < until);
};

describe('longestBlock', () => {
  it('counts a turn that ends just before it is stopped', async () => {
    const stop = longestBlock();
    await setImmediate();
    spin(30);
    // No tick of its timer ran after the spin: the caller stops it in the same turn.
    expect(stop()).toBeGreaterThan(20);
  });

  it('counts a turn between ticks', async () => {
    const stop = longestBlock();
    await setImmediate();
    spin(30);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stop()).toBeGreaterThan(20);
  });
});
