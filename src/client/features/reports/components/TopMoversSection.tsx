import type { ReportPeriod } from '@shared/schemas/reports.js';
import { formatCount } from '@/lib/format.js';
import { useTopMovers } from '../api/get-top-movers.js';
import { ProductTable } from './ProductTable.js';
import { ReportSection, ReportStatus } from './ReportSection.js';

export function TopMoversSection({ days }: { days: ReportPeriod }) {
  const report = useTopMovers(days);
  return (
    <ReportSection id="top-movers" title="Top movers" name="top-movers" params={{ days }}>
      <ReportStatus query={report}>
        <ProductTable
          products={report.data?.products ?? []}
          empty={`No stock moved in the last ${days} days.`}
          label="Products that moved the most"
          columns={[
            { label: 'In', numeric: true },
            { label: 'Out', numeric: true },
            { label: 'Moved', numeric: true },
          ]}
          cells={(product) => [
            formatCount(product.unitsIn),
            formatCount(product.unitsOut),
            formatCount(product.moved),
          ]}
        />
      </ReportStatus>
    </ReportSection>
  );
}
