import { useState } from 'react';
import type { ReportPeriod } from '@shared/schemas/reports.js';
import { Segmented } from '@/components/controls/Segmented.js';
import { tabTitle } from '@/lib/texts.js';
import { FIRST_REPORT_PERIOD } from '../api/reports-url.js';
import { DeadStockSection } from './DeadStockSection.js';
import { StockOverTimeSection } from './StockOverTimeSection.js';
import { ToReorderSection } from './ToReorderSection.js';
import { TopMoversSection } from './TopMoversSection.js';

const PERIODS = [
  { value: 30, label: '30 days' },
  { value: 90, label: '90 days' },
  { value: 365, label: '365 days' },
] as const satisfies readonly { value: ReportPeriod; label: string }[];

/** `/reports` and `/catalogues/:catalogueId/reports`: the catalogue's stock reports. */
export function ReportsScreen() {
  const [days, setDays] = useState<ReportPeriod>(FIRST_REPORT_PERIOD);
  return (
    <div className="mx-auto max-w-5xl min-w-0 space-y-6">
      <title>{tabTitle('Reports')}</title>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-gray-900 sm:text-3xl">Reports</h1>
          <p className="mt-1 text-sm text-gray-600">
            How stock moved, what sits still and what to order. Days are UTC days.
          </p>
        </div>
        <Segmented label="Period" options={PERIODS} value={days} onChange={setDays} />
      </div>
      <StockOverTimeSection days={days} />
      <TopMoversSection days={days} />
      <DeadStockSection />
      <ToReorderSection />
    </div>
  );
}
