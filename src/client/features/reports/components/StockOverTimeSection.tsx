import { useState } from 'react';
import type { ReportPeriod } from '@shared/schemas/reports.js';
import { ScrollRegion, TableHead, tableCell } from '@/components/controls/Table.js';
import { formatCount, formatPrice } from '@/lib/format.js';
import { useStockOverTime } from '../api/get-stock-over-time.js';
import { numeric } from './ProductTable.js';
import { ReportSection, ReportStatus } from './ReportSection.js';
import { StockChart } from './StockChart.js';

export function StockOverTimeSection({ days }: { days: ReportPeriod }) {
  const report = useStockOverTime(days);
  const [asTable, setAsTable] = useState(false);
  const points = report.data?.days ?? [];
  const last = points.at(-1);
  return (
    <ReportSection
      id="stock-over-time"
      title="Stock over time"
      name="stock-over-time"
      params={{ days }}
    >
      <ReportStatus query={report}>
        {last && (
          <p className="text-sm text-gray-700">
            Today: <span className="font-semibold">{formatCount(last.units)} units</span> worth{' '}
            <span className="font-semibold">{formatPrice(last.value)}</span> at today&apos;s prices.{' '}
            <span className="text-gray-600">
              That is price × units: what it would sell for. The list&apos;s value at cost is cost ×
              units: what it cost you.
            </span>
          </p>
        )}
        <StockChart
          days={points}
          label={`Stock value and units at the end of each of the last ${days} days`}
        />
        <button
          type="button"
          aria-pressed={asTable}
          onClick={() => setAsTable((shown) => !shown)}
          className="text-sm font-semibold text-indigo-700 hover:underline"
        >
          Show as table
        </button>
        {/* The chart's figures for screen readers always; on screen once asked for. */}
        <div className={asTable ? '' : 'sr-only'}>
          <ScrollRegion label="Daily figures" className="max-h-96">
            <table className="min-w-full text-sm">
              <caption className="sr-only">Units and value at the end of each day</caption>
              <TableHead
                columns={[
                  { label: 'Date' },
                  { label: 'Units', numeric: true },
                  { label: 'Value', numeric: true },
                ]}
              />
              <tbody className="divide-y divide-gray-100">
                {points.map((point) => (
                  <tr key={point.date}>
                    <td className={`${tableCell} whitespace-nowrap`}>{point.date}</td>
                    <td className={numeric}>{formatCount(point.units)}</td>
                    <td className={numeric}>{formatPrice(point.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </div>
      </ReportStatus>
    </ReportSection>
  );
}
