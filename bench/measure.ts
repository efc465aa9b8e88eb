import os from 'node:os';
import autocannon, { type Result } from 'autocannon';
import { cpuSeconds } from './proc.js';
import { median } from './median.js';

export const CONNECTIONS = 10;
/** Seconds per measured round; each figure is the median of ROUNDS rounds. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
export const ROUNDS = 3;

export interface Request {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface Figure {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /**
   * Requests per CPU second of the server (its user + system time during the rounds, from /proc),
   * when its pid is known: unlike req/s, hardly moved by what else the machine runs.
   */
  perCpuSecond?: number;
  /** The machine's 1-minute load average when the first round began and the last one ended. */
  load: [number, number];
}

/** A URL to measure, and the pid of the server that answers it (for its CPU time). */
export interface Target {
  url: string;
  request: Request;
  pid?: number;
}

const loadNow = () => os.loadavg()[0]!;

async function run(url: string, request: Request, duration: number, connections = CONNECTIONS) {
  const result = await autocannon({
    url,
    connections,
    duration,
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    ...(request.body ? { body: request.body } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result;
}

/** One round against a target: its figure, with the server's CPU time when its pid is known. */
async function round(target: Target, seconds: number, connections: number): Promise<Figure> {
  const load = loadNow();
  const cpuBefore = target.pid ? cpuSeconds(target.pid) : 0;
  const result = await run(target.url, target.request, seconds, connections);
  const cpu = target.pid ? cpuSeconds(target.pid) - cpuBefore : 0;
  return {
    ...figure(result, [load, loadNow()]),
    ...(cpu > 0 ? { perCpuSecond: result.requests.total / cpu } : {}),
  };
}

/**
 * Measures the targets in alternating rounds after a warm-up of each, and gives each one the
 * median of its rounds: the machine's other load then weighs on all of them alike instead of on
 * whichever happened to run while it peaked.
 */
export async function measure(targets: Target[], connections = CONNECTIONS): Promise<Figure[]> {
  for (const { url, request } of targets) await run(url, request, 1, connections);
  const rounds: Figure[][] = targets.map(() => []);
  for (let i = 0; i < ROUNDS; i += 1) {
    for (const [t, target] of targets.entries()) {
      rounds[t]!.push(await round(target, SECONDS, connections));
    }
  }
  return rounds.map(medians);
}

const figure = (result: Result, load: [number, number]): Figure => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  max: result.latency.max,
  load,
});

const medians = (figures: Figure[]): Figure => {
  const perCpu = figures.flatMap((f) => (f.perCpuSecond === undefined ? [] : [f.perCpuSecond]));
  return {
    rps: median(figures.map((f) => f.rps)),
    p50: median(figures.map((f) => f.p50)),
    p99: median(figures.map((f) => f.p99)),
    max: median(figures.map((f) => f.max)),
    ...(perCpu.length > 0 ? { perCpuSecond: median(perCpu) } : {}),
    load: [figures[0]!.load[0], figures.at(-1)!.load[1]],
  };
};

/**
 * Measures `target` while `load` runs at the same time on its own connections, in ROUNDS rounds:
 * how another request fares while the load keeps the server busy. Gives both figures.
 */
export async function measureDuring(
  target: { url: string; request: Request },
  load: { url: string; request: Request },
): Promise<{ target: Figure; load: Figure }> {
  const targets: Figure[] = [];
  const loads: Figure[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const before = loadNow();
    const [t, l] = await Promise.all([
      run(target.url, target.request, SECONDS),
      run(load.url, load.request, SECONDS),
    ]);
    targets.push(figure(t, [before, loadNow()]));
    loads.push(figure(l, [before, loadNow()]));
  }
  return { target: medians(targets), load: medians(loads) };
}
