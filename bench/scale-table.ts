/** The tables of `npm run bench:scale` (bench/scale.ts), as Markdown. */
import os from 'node:os';
import type { Costs, ExportCost, ImportCosts, Waits } from './scale-catalogue.js';
import type { WideCountCost } from './scale-counts.js';
import type { PointChangeCost } from './scale-point-change.js';

interface SizeResult {
  size: number;
  seedSeconds: number;
  costs: Costs;
  /** Left out, as the requests are, when the imports run alone (BENCH_SCALE_ONLY=imports). */
  exported: ExportCost | undefined;
  wideCount: WideCountCost | undefined;
  pointChange: PointChangeCost | undefined;
  imports: ImportCosts | undefined;
  /** SQLite's file and log, in bytes (0 on PostgreSQL). */
  disk: number;
}

type Measured = SizeResult & { exported: ExportCost };
type Counted = SizeResult & { wideCount: WideCountCost };

export interface EngineResult {
  engine: string;
  sizes: SizeResult[];
  beside: { size: number; costs: Costs } | undefined;
}

/** Growth allowed for a per-request cost from the smallest to the largest catalogue. */
const FLAT = 1.5;

export const count = (n: number) => n.toLocaleString('en-US');
export const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const ratio = (value: number) => `${value.toFixed(2)}${value > FLAT ? ' ✗' : ''}`;
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** A Markdown table's head: its columns' names, the first aligned left and the others right. */
export const tableHead = (columns: string[]) => [
  `| ${columns.join(' | ')} |`,
  `| --- |${columns
    .slice(1)
    .map(() => ' ---: |')
    .join('')}`,
];

function engineTable(result: EngineResult) {
  const name = result.engine === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL)';
  const first = result.sizes[0]!;
  const last = result.sizes.at(-1)!;
  const beside = result.beside;
  const header = [
    'request',
    ...result.sizes.map((size) => count(size.size)),
    ...(beside ? [`${count(beside.size)} beside ${count(last.size)}`] : []),
    `${count(last.size)} ÷ ${count(first.size)}`,
    ...(beside ? ['beside ÷ alone'] : []),
  ];
  const lines = [
    `### ${name}`,
    '',
    `${result.engine === 'postgres' ? 'CPU ms per request of the server and of its connections’ PostgreSQL backends' : 'Server CPU ms per request'} (every thread, from /proc), then the wall ms the client waited; medians of the rounds. ✗: grew more than 1.5 ×.`,
    '',
    ...tableHead(header),
  ];
  // The imports alone: no request was measured.
  if (first.costs.size === 0) lines.splice(2);
  for (const label of first.costs.keys()) {
    const cells = result.sizes.map((size) => {
      const cost = size.costs.get(label)!;
      return `**${ms(cost.cpuMs)}** / ${ms(cost.wallMs)}`;
    });
    const besideCost = beside?.costs.get(label);
    const growth = last.costs.get(label)!.cpuMs / first.costs.get(label)!.cpuMs;
    lines.push(
      `| ${[
        label,
        ...cells,
        ...(besideCost ? [`**${ms(besideCost.cpuMs)}** / ${ms(besideCost.wallMs)}`] : []),
        ratio(growth),
        ...(besideCost ? [ratio(besideCost.cpuMs / first.costs.get(label)!.cpuMs)] : []),
      ].join(' | ')} |`,
    );
  }
  const row = (label: string, cell: (size: SizeResult) => string) =>
    lines.push(`| ${[label, ...result.sizes.map(cell)].join(' | ')} |`);
  lines.push('', ...tableHead(['catalogue-wide work', ...result.sizes.map((s) => count(s.size))]));
  const exportRows = (row: (label: string, cell: (size: Measured) => string) => void) => {
    row(
      'export.csv: size, wall s (server CPU s)',
      (s) =>
        `${mb(s.exported.bytes)}, ${s.exported.seconds.toFixed(2)} s (${s.exported.cpuSeconds.toFixed(2)})`,
    );
    row('export.csv: rows/s', (s) => count(Math.round(s.exported.rows / s.exported.seconds)));
    row(
      'raw read + join of the same rows: s (same bytes?)',
      (s) => `${s.exported.rawSeconds.toFixed(2)} (${s.exported.same ? 'yes' : 'no'})`,
    );
    row(
      'export ÷ raw speed (≥ 25 % wanted)',
      (s) => `**${((s.exported.rawSeconds / s.exported.seconds) * 100).toFixed(0)} %**`,
    );
  };
  const wallCpu = (cost: { wallMs: number; cpuMs: number }) =>
    `**${ms(cost.wallMs)}** (${ms(cost.cpuMs)})`;
  const countRows = (row: (label: string, cell: (size: Counted) => string) => void) => {
    row(
      'a count of the whole catalogue, its lines: review page (first 500 lines, summary, never counted): wall ms (server CPU ms)',
      (s) => `${count(s.wideCount.lines)}: ${wallCpu(s.wideCount.review)}`,
    );
    row(
      'its CSV: size, wall ms (server CPU ms)',
      (s) => `${mb(s.wideCount.csv.bytes)}, ${wallCpu(s.wideCount.csv)}`,
    );
    row(
      'its count sheet (PDF, at most 2,000 places): size, wall ms (server CPU ms)',
      (s) => `${mb(s.wideCount.sheet.bytes)}, ${wallCpu(s.wideCount.sheet)}`,
    );
    row(
      'its posting, one transaction: movements, wall ms of the request (server CPU ms)',
      (s) => `${count(s.wideCount.post.movements)}, ${wallCpu(s.wideCount.post)}`,
    );
  };
  if (first.exported) exportRows(row as (label: string, cell: (size: Measured) => string) => void);
  if (first.wideCount) countRows(row as (label: string, cell: (size: Counted) => string) => void);
  const seconds = (cost: { wallMs: number; cpuMs: number }) =>
    `**${(cost.wallMs / 1000).toFixed(2)}** (${(cost.cpuMs / 1000).toFixed(2)})`;
  const waits = ({ p50, p99, max, count: n, failed }: Waits) =>
    `${ms(p50)} / **${ms(p99)}** / ${ms(max)} (${n}, ${failed})`;
  if (first.pointChange) {
    const change = (s: SizeResult) => s.pointChange!;
    row(
      "the catalogue's reorder point raised past every stock: products to reorder before → after, wall s (server CPU s)",
      (s) =>
        `${count(change(s).toReorder.before)} → ${count(change(s).toReorder.after)}, ${seconds(change(s).raise)}`,
    );
    row('and set back: wall s (server CPU s)', (s) => seconds(change(s).lower));
    row(
      "another user's stock change every 50 ms during both: wall ms p50 / p99 / max (changes, failed)",
      (s) => waits(change(s).bystander),
    );
  }
  if (first.imports) {
    const percent = (part: number, whole: number) => `**${((part / whole) * 100).toFixed(1)} %**`;
    row('re-import 1,000 existing rows: wall s (server CPU s)', (s) =>
      seconds(s.imports!.reimport),
    );
    row(
      're-import every existing row (at most 50,000): rows, wall s (server CPU s)',
      (s) => `${count(s.imports!.reimportAll.rows)}, ${seconds(s.imports!.reimportAll)}`,
    );
    row(
      "another user's stock change every 50 ms during that re-import: wall ms p50 / p99 / max (changes, failed)",
      (s) => waits(s.imports!.reimportBystander),
    );
    row(
      'new 50,000-row import: rows/s (server CPU s)',
      (s) =>
        `**${count(Math.round(s.imports!.newRowsPerSecond))}** (${s.imports!.newCpuSeconds.toFixed(1)})`,
    );
    row('raw prepared inserts of the same rows into a bare SQLite table: rows/s', (s) =>
      count(Math.round(s.imports!.rawRowsPerSecond)),
    );
    row('import ÷ raw, bare table (≥ 25 % wanted)', (s) =>
      percent(s.imports!.newRowsPerSecond, s.imports!.rawRowsPerSecond),
    );
    row(
      "raw prepared inserts of the same rows into the app's products table (its indexes, search index): rows/s",
      (s) => count(Math.round(s.imports!.rawAppRowsPerSecond)),
    );
    row("import ÷ raw, app's table", (s) =>
      percent(s.imports!.newRowsPerSecond, s.imports!.rawAppRowsPerSecond),
    );
    row(
      "another user's stock change every 50 ms during the new import: wall ms p50 / p99 / max (changes, failed)",
      (s) => waits(s.imports!.bystander),
    );
  }
  row('seeding the catalogue (data layer): s', (s) => s.seedSeconds.toFixed(1));
  if (result.engine !== 'postgres') row('database on disk (before the imports)', (s) => mb(s.disk));
  return lines.join('\n');
}

export function renderScale(
  results: EngineResult[],
  run: { seconds: number; loadBefore: string; loadAfter: string; imports: boolean },
) {
  return [
    '# Scale benchmark (`npm run bench:scale`)',
    '',
    `Run ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, in ${(run.seconds / 60).toFixed(1)} min. Load average (1, 5, 15 min; other work on the machine included) before: ${run.loadBefore}; after: ${run.loadAfter}. CPU times hardly move with the load; wall times do.`,
    '',
    'Each catalogue is seeded through the data layer (batched inserts, as the reports’ tests seed it), in a fresh database: its products created 10 to 400 days ago and about 100,000 stock movements since (each product’s creation, and more at random times), one product in seven with a reorder point of its own. The import is measured on its own rows, over HTTP. The production build serves it (`npm start`’s command, NODE_ENV=production), one request at a time over loopback. Reads vary their page size (31 to 50) so that none is answered from the response cache: what is measured is the query. The to-reorder report, which keeps no answer, is asked for a page of 30, which every size fills. “beside” is a catalogue of the smallest size in the database of the largest, measured after it.',
    run.imports ? '' : '\nThe imports were not run (BENCH_SCALE_IMPORTS=off).\n',
    ...results.map(engineTable),
    '',
  ].join('\n');
}
