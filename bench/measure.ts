import autocannon, { type Result } from 'autocannon';

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
}

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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/**
 * Measures the targets in alternating rounds after a warm-up of each, and gives each one the
 * median of its rounds: the machine's other load then weighs on all of them alike instead of on
 * whichever happened to run while it peaked.
 */
export async function measure(
  targets: { url: string; request: Request }[],
  connections = CONNECTIONS,
): Promise<Figure[]> {
  for (const { url, request } of targets) await run(url, request, 1, connections);
  const rounds: Figure[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, { url, request }] of targets.entries()) {
      const result = await run(url, request, SECONDS, connections);
      rounds[i]!.push(figure(result));
    }
  }
  return rounds.map(medians);
}

const figure = (result: Result): Figure => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  max: result.latency.max,
});

const medians = (figures: Figure[]): Figure => ({
  rps: median(figures.map((f) => f.rps)),
  p50: median(figures.map((f) => f.p50)),
  p99: median(figures.map((f) => f.p99)),
  max: median(figures.map((f) => f.max)),
});

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
  for (let round = 0; round < ROUNDS; round += 1) {
    const [t, l] = await Promise.all([
      run(target.url, target.request, SECONDS),
      run(load.url, load.request, SECONDS),
    ]);
    targets.push(figure(t));
    loads.push(figure(l));
  }
  return { target: medians(targets), load: medians(loads) };
}
