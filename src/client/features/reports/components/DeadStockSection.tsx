import { formatCount, formatDateTime, formatPrice } from '@/lib/format.js';
import { useDeadStock } from '../api/get-dead-stock.js';
import { ProductTable } from './ProductTable.js';
import { ReportSection, ReportStatus } from './ReportSection.js';

export function DeadStockSection() {
  const report = useDeadStock();
  return (
    <ReportSection id="dead-stock" title="No movement in 90 days" name="dead-stock">
      <ReportStatus query={report}>
        <ProductTable
          products={report.data?.products ?? []}
          empty="Every product with stock moved in 90 days."
          label="Products with stock that did not move"
          columns={[
            { label: 'Stock', numeric: true },
            { label: 'Value', numeric: true },
            { label: 'Last moved' },
          ]}
          cells={(product) => [
            formatCount(product.stock),
            formatPrice(product.value),
            formatDateTime(product.lastMovedAt),
          ]}
        />
      </ReportStatus>
    </ReportSection>
  );
}
