/**
 * The catalogue operations of `npm run bench`: the CSV export (rows a second, and the server's
 * resident memory while it streams), the CSV import, and stock adjustments under many clients.
 */
import autocannon from 'autocannon';
import { centsText } from '../src/server/features/catalogue-ops/csv-export.js';
import { ROUNDS } from './measure.js';
import { peakRss } from './proc.js';
import { products } from './seed.js';
import { median } from './median.js';

export interface ExportFigure {
  rows: number;
  bytes: number;
  /** Median of the rounds. */
  seconds: number;
  rowsPerSecond: number;
  /** The server's resident memory before the first round, and its highest during any round. */
  rssBefore: number;
  rssPeak: number;
}

/**
 * Downloads the export ROUNDS times, reading it as it arrives and keeping nothing: its rows a
 * second (median) and the server's resident memory meanwhile.
 */
export async function measureExport(
  url: string,
  token: string,
  serverPid: number,
): Promise<ExportFigure> {
  const seconds: number[] = [];
  let rows = 0;
  let bytes = 0;
  let rssBefore = Number.POSITIVE_INFINITY;
  let rssPeak = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const {
      result,
      before: [before],
      peaks: [peak],
    } = await peakRss([serverPid], async () => {
      const started = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status}`);
      let lines = 0;
      let size = 0;
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        for (const byte of value) if (byte === 0x0a) lines += 1;
      }
      return { seconds: (performance.now() - started) / 1000, lines, size };
    });
    seconds.push(result.seconds);
    // The header is a line; the seeded descriptions hold no line break.
    rows = result.lines - 1;
    bytes = result.size;
    rssBefore = Math.min(rssBefore, before!);
    rssPeak = Math.max(rssPeak, peak!);
  }
  const time = median(seconds);
  return { rows, bytes, seconds: time, rowsPerSecond: rows / time, rssBefore, rssPeak };
}

/** A CSV file of `count` products like the seeded ones, as a spreadsheet would save it. */
export function importFile(count: number): Buffer {
  const quote = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = ['name,price,stock,description'];
  for (const product of products(count)) {
    const { name, priceCents, stock, description } = product;
    lines.push([quote(name), centsText(priceCents), stock, quote(description)].join(','));
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/** Posts a CSV file to the import as multipart; returns the seconds it took. */
export async function timedImport(url: string, token: string, file: Buffer, expected: number) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), 'products.csv');
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const report = (await res.json()) as { created?: number; errors?: unknown[] };
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 200 || report.created !== expected) {
    throw new Error(`import: ${res.status} ${JSON.stringify(report).slice(0, 300)}`);
  }
  return seconds;
}

export interface AdjustFigure {
  rps: number;
  p50: number;
  p99: number;
  /** Answers counted by autocannon and units the stock moved by: equal when nothing was lost. */
  answers: number;
  moved: number;
}

/** Adjustments sent in a round: every one is answered before the round ends. */
export const ADJUSTMENTS_PER_ROUND = 3_000;

/**
 * `connections` clients adding 1 to the stock without pause, ROUNDS rounds of
 * ADJUSTMENTS_PER_ROUND requests: either all on one product (every request waits for the same
 * row) or each request on the next of `ids`. Afterwards the stock must have moved by exactly the
 * number of answers.
 */
export async function measureAdjustments(
  base: string,
  token: string,
  ids: string[],
  connections: number,
  stockOf: () => Promise<number>,
): Promise<AdjustFigure> {
  let next = 0;
  const figures: { rps: number; p50: number; p99: number }[] = [];
  const start = await stockOf();
  let answers = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const result = await autocannon({
      url: base,
      connections,
      amount: ADJUSTMENTS_PER_ROUND,
      requests: [
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ delta: 1 }),
          setupRequest: (request) => {
            const id = ids[next % ids.length]!;
            next += 1;
            return { ...request, path: `/api/products/${id}/stock` };
          },
        },
      ],
    });
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`adjustments: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    }
    answers += result['2xx'];
    figures.push({
      // A run of a fixed count: its rate is the count over its time (the per-second average
      // of autocannon counts a run shorter than a second as one second).
      rps: result['2xx'] / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
    });
  }
  const moved = (await stockOf()) - start;
  if (moved !== answers) throw new Error(`adjustments: ${answers} answers, stock moved ${moved}`);
  return {
    rps: median(figures.map((figure) => figure.rps)),
    p50: median(figures.map((figure) => figure.p50)),
    p99: median(figures.map((figure) => figure.p99)),
    answers,
    moved,
  };
}
