import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout } from 'node:timers/promises';

/**
 * How many times over the machine's cores are asked for (1 on a machine with CPU to spare, at
 * most 3): on a loaded machine every process gets a share, and a latency measured in wall-clock
 * time grows with it whatever the server does. What the server does is measured in CPU time.
 */
export const contention = () => Math.min(3, Math.max(1, loadavg()[0]! / availableParallelism()));

/** The main thread's time waiting for a core, in ms (Linux's schedstat). */
const mainThreadWaitMs = () =>
  Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;

/**
 * The longest the event loop went without a turn, in wall-clock time less what the main thread
 * waited for a core meanwhile (Linux): sampled by a 1 ms timer until `stop()` is called. Unlike
 * the CPU time it counts what holds the loop off the CPU too (a synchronous read of a file),
 * and unlike the wall-clock delay it leaves out the turns other processes took on the same cores
 * (a database server busy with the requests measured).
 */
export function longestHold() {
  let longest = 0;
  let last = { at: performance.now(), waited: mainThreadWaitMs() };
  const tick = () => {
    const now = { at: performance.now(), waited: mainThreadWaitMs() };
    longest = Math.max(longest, now.at - last.at - (now.waited - last.waited));
    last = now;
  };
  const timer = setInterval(tick, 1);
  return () => {
    clearInterval(timer);
    tick();
    return longest;
  };
}

/** CPU time the main thread has run, in milliseconds (Linux: its scheduler statistics). */
const mainThreadCpuMs = () =>
  Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;

/**
 * The longest run of the event loop without a turn meanwhile, in CPU time of the main thread:
 * sampled by a 1 ms timer until `stop()` is called, which counts the stretch since the last tick
 * too (work awaited in this process ends in a turn that no tick follows before the caller stops).
 */
export function longestBlock() {
  let longest = 0;
  let last = mainThreadCpuMs();
  const timer = setInterval(() => {
    const now = mainThreadCpuMs();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return () => {
    clearInterval(timer);
    return Math.max(longest, mainThreadCpuMs() - last);
  };
}

/** The longest the main thread ran without a turn meanwhile while `work` ran, in CPU time. */
export async function longestTurn(work: () => Promise<unknown>) {
  const stop = longestBlock();
  await work();
  return stop();
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** The pause between one bystander's requests. */
const BETWEEN_REQUESTS_MS = 10;

/**
 * Fetches `url` until `isDone()`, a request every few milliseconds, timing each answer (each must
 * be a 200). Not back to back: this process is the server too, and requests without end would take
 * the measured work's CPU, measuring slower work for no more certainty.
 */
export async function timeRequests(
  url: string,
  headers: Record<string, string>,
  isDone: () => boolean,
  timings: number[],
) {
  while (!isDone()) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    timings.push(performance.now() - started);
    await setTimeout(BETWEEN_REQUESTS_MS);
  }
}

/**
 * Adds 1 to a product's stock over HTTP every `everyMs` until `isDone()`, timing each answer (each
 * must be a 200), each sent on time whether or not the ones before were answered: a change held
 * up for seconds holds up every change sent meanwhile, and the percentiles see it (one after
 * another, the whole wait would be a single sample).
 */
export async function changeStockEvery(
  everyMs: number,
  to: { base: string; productId: string; headers: Record<string, string> },
  isDone: () => boolean,
  waits: number[],
) {
  const sent: Promise<void>[] = [];
  while (!isDone()) {
    const started = performance.now();
    sent.push(
      fetch(`${to.base}/api/products/${to.productId}/stock`, {
        method: 'POST',
        headers: { ...to.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ delta: 1 }),
      }).then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`a stock change answered ${res.status}`);
        waits.push(performance.now() - started);
      }),
    );
    await setTimeout(everyMs);
  }
  await Promise.all(sent);
}
