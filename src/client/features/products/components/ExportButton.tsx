import { Button } from '@/components/ui/Button.js';
import { saveDownload } from '@/lib/download.js';
import { notifyError } from '@/lib/notify.js';
import { useExportProducts } from '../api/export-products.js';
import type { ProductListParams } from '../api/get-products.js';

/** 'Export CSV': the products of the list's search, sort and filter, saved as a file. */
export function ExportButton({ params }: { params: ProductListParams }) {
  const exporting = useExportProducts({
    mutationConfig: { onSuccess: saveDownload, onError: notifyError },
  });
  return (
    <Button
      variant="secondary"
      busy={exporting.isPending}
      busyLabel="Exporting..."
      onClick={() => exporting.mutate(params)}
    >
      Export CSV
    </Button>
  );
}
