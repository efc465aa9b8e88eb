import { OrderWhatsLowButton } from '@/components/purchasing/OrderWhatsLowButton.js';
import { formatCount } from '@/lib/format.js';
import { useToReorder } from '../api/get-to-reorder.js';
import { ProductTable } from './ProductTable.js';
import { ReportSection, ReportStatus } from './ReportSection.js';

export function ToReorderSection() {
  const report = useToReorder();
  return (
    <ReportSection id="to-reorder" title="To reorder" name="to-reorder">
      <OrderWhatsLowButton />
      <ReportStatus query={report}>
        <ProductTable
          products={report.data?.products ?? []}
          empty="Nothing is at or below its reorder point."
          label="Products at or below their reorder point"
          columns={[
            { label: 'Stock', numeric: true },
            { label: 'Reorder point', numeric: true },
            { label: 'On order', numeric: true },
            { label: 'To order', numeric: true },
          ]}
          cells={(product) => [
            formatCount(product.stock),
            formatCount(product.reorderPoint),
            formatCount(product.onOrder),
            formatCount(product.toOrder),
          ]}
        />
      </ReportStatus>
    </ReportSection>
  );
}
