import { useState } from 'react';
import { ScreenHeading } from '@/components/ui/ScreenHeading.js';
import type { ReportPeriod } from '@shared/schemas/reports.js';
import { Segmented } from '@/components/controls/Segmented.js';
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
      <ScreenHeading
        title="Reports"
        description="How stock moved, what sits still and what to order. Days are UTC days."
        actions={<Segmented label="Period" options={PERIODS} value={days} onChange={setDays} />}
      />
      <StockOverTimeSection days={days} />
      <TopMoversSection days={days} />
      <DeadStockSection />
      <ToReorderSection />
    </div>
  );
}
