/**
 * The event stream's fan-out: 1,000 streams of one user open on one process, one stock change,
 * and the time until the last stream has its event; and the server's memory per open stream
 * (its RSS with the streams open, less its RSS before, over their number). The streams are read
 * by this process, the server is its own (`launch`), so neither side's work hides the other's.
 */
import http from 'node:http';
import { procStatus } from './proc.js';
import { median } from './median.js';

export const FANOUT_STREAMS = 1_000;
/** Changes measured, one after another: the median is reported. */
const CHANGES = 9;

export interface FanoutFigure {
  streams: number;
  /** Milliseconds from sending the change to the last stream having its event, per change. */
  lastMs: number[];
  /** Milliseconds until the first stream has it, per change. */
  firstMs: number[];
  /** The server's RSS growth per open stream, in bytes. */
  bytesPerStream: number;
}

interface OpenStream {
  request: http.ClientRequest;
  /** Resolves when the next `stock.changed` arrives on this stream. */
  next(): Promise<number>;
}

function openStream(baseUrl: string, token: string, agent: http.Agent): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    let wake: ((at: number) => void) | undefined;
    const request = http.get(
      `${baseUrl}/api/events`,
      { agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`stream refused: ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (chunk.includes('event: stock.changed')) wake?.(performance.now());
        });
        resolve({
          request,
          next: () => new Promise((done) => (wake = done)),
        });
      },
    );
    request.on('error', reject);
  });
}

const fanoutSummary = (figure: FanoutFigure) => ({
  lastMs: median(figure.lastMs),
  firstMs: median(figure.firstMs),
  kbPerStream: figure.bytesPerStream / 1024,
});

export async function measureFanout(
  baseUrl: string,
  serverPid: number,
  token: string,
  productId: string,
): Promise<FanoutFigure> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const settle = () => new Promise((done) => setTimeout(done, 1_000));
  await settle();
  const before = procStatus(serverPid, 'VmRSS') ?? 0;
  const streams: OpenStream[] = [];
  // In batches: a thousand connections at once would measure the accept queue instead.
  for (let i = 0; i < FANOUT_STREAMS; i += 100) {
    const batch = Array.from({ length: Math.min(100, FANOUT_STREAMS - i) }, () =>
      openStream(baseUrl, token, agent),
    );
    streams.push(...(await Promise.all(batch)));
  }
  await settle();
  const after = procStatus(serverPid, 'VmRSS') ?? 0;
  const lastMs: number[] = [];
  const firstMs: number[] = [];
  try {
    for (let change = 0; change < CHANGES; change += 1) {
      const arrivals = Promise.all(streams.map((stream) => stream.next()));
      const sent = performance.now();
      const res = await fetch(`${baseUrl}/api/products/${productId}/stock`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ delta: 1 }),
      });
      if (res.status !== 200) throw new Error(`adjustment failed: ${await res.text()}`);
      const times = await arrivals;
      lastMs.push(Math.max(...times) - sent);
      firstMs.push(Math.min(...times) - sent);
      await new Promise((done) => setTimeout(done, 200));
    }
  } finally {
    for (const stream of streams) stream.request.destroy();
    agent.destroy();
  }
  return {
    streams: FANOUT_STREAMS,
    lastMs,
    firstMs,
    bytesPerStream: (after - before) / FANOUT_STREAMS,
  };
}

/** The figures as a section of the results (medians of the changes measured). */
export function renderFanout(figure: FanoutFigure): string {
  const { lastMs, firstMs, kbPerStream } = fanoutSummary(figure);
  return [
    '## Live events: fan-out',
    '',
    `${figure.streams.toLocaleString('en-US')} open \`GET /api/events\` streams of one user on one process, one stock adjustment at a time (${figure.lastMs.length} of them, medians):`,
    '',
    '| measure | value |',
    '| --- | --- |',
    `| adjustment sent → first stream has its event | ${firstMs.toFixed(1)} ms |`,
    `| adjustment sent → last of ${figure.streams.toLocaleString('en-US')} streams has it | ${lastMs.toFixed(1)} ms |`,
    `| server memory per open stream (RSS growth / streams) | ${kbPerStream.toFixed(1)} KB |`,
    '',
  ].join('\n');
}
