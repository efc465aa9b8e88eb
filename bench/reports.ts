/**
 * The stock reports of `npm run bench` (`BENCH_ONLY=reports`, written to bench/results-reports.md):
 * each report of a catalogue of 10,000 products and 200,000 movements (tests/server/support/
 * report-seed.ts), requested one at a time over HTTP from the server run from its sources, in
 * milliseconds per answer (median and slowest of the rounds).
 */
const REPORT_ROUNDS = 15;

export interface ReportFigure {
  path: string;
  medianMs: number;
  maxMs: number;
  bytes: number;
}

const REPORT_PATHS = [
  '/api/products/reports/stock-over-time?days=30',
  '/api/products/reports/stock-over-time?days=90',
  '/api/products/reports/stock-over-time?days=365',
  '/api/products/reports/top-movers?days=30',
  '/api/products/reports/top-movers?days=365',
  '/api/products/reports/dead-stock',
  '/api/products/reports/to-reorder',
  '/api/products/reports/stock-over-time.csv?days=365',
  '/api/products/reports/dead-stock.csv',
  '/api/products/reports/to-reorder.csv',
];

/** Each report REPORT_ROUNDS times, after one warm-up request. */
export async function measureReports(baseUrl: string, token: string): Promise<ReportFigure[]> {
  const headers = { authorization: `Bearer ${token}` };
  const figures: ReportFigure[] = [];
  for (const path of REPORT_PATHS) {
    console.log(`measuring ${path}…`);
    let bytes = 0;
    const times: number[] = [];
    for (let round = 0; round <= REPORT_ROUNDS; round += 1) {
      const started = performance.now();
      const res = await fetch(baseUrl + path, { headers });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      if (round > 0) times.push(performance.now() - started);
      bytes = body.byteLength;
    }
    times.sort((a, b) => a - b);
    figures.push({ path, medianMs: times[times.length >> 1]!, maxMs: times.at(-1)!, bytes });
  }
  return figures;
}

export function renderReports(figures: ReportFigure[], note: string) {
  const lines = [
    '## Stock reports (10,000 products, 200,000 movements)',
    '',
    '| Report | Median ms | Slowest ms | Bytes |',
    '| --- | ---: | ---: | ---: |',
    ...figures.map(
      (figure) =>
        `| \`GET ${figure.path}\` | ${figure.medianMs.toFixed(1)} | ${figure.maxMs.toFixed(1)} | ${figure.bytes} |`,
    ),
    '',
    note,
    '',
  ];
  return lines.join('\n');
}
