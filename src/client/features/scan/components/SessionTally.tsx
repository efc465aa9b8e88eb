import { formatCount } from '@/lib/format.js';
import type { TallyLine } from '../use-scan-session.js';

const signed = (delta: number) => (delta > 0 ? `+${formatCount(delta)}` : formatCount(delta));

/** The session's scans so far, a line per product: proof that each scan counted. */
export function SessionTally({ lines }: { lines: TallyLine[] }) {
  if (lines.length === 0) return null;
  const scans = lines.reduce((sum, line) => sum + line.scans, 0);
  return (
    <section
      aria-label="This session"
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-gray-200"
    >
      <h2 className="text-sm font-semibold text-gray-900">
        This session: {formatCount(scans)} {scans === 1 ? 'scan' : 'scans'}
      </h2>
      <ul className="mt-2 divide-y divide-gray-100 text-sm">
        {lines.map(({ product, delta }) => (
          <li key={product.id} className="flex justify-between gap-3 py-1.5">
            <span className="min-w-0 wrap-anywhere text-gray-900">{product.name}</span>
            <span className="shrink-0 font-semibold text-gray-900 tabular-nums">
              {signed(delta)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
