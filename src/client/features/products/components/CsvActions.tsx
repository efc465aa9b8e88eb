import { Link } from 'react-router';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { Button } from '@/components/ui/Button.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { Menu, MenuChevron, menuItemProps, menuPanelClasses } from '@/components/controls/Menu.js';
import { saveDownload } from '@/lib/download.js';
import type { Download } from '@/lib/api-download.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { useExportProducts, useExportStockByLocation } from '../api/export-products.js';
import type { ProductListParams } from '../api/get-products.js';

const itemClasses =
  'block w-full px-4 py-2.5 text-left text-sm text-gray-700 hover:bg-gray-100 focus:bg-gray-100 focus:outline-none disabled:opacity-60';

/**
 * Saves the file and says so: a browser may save a download without a word, and on a phone the
 * menu that said 'Exporting...' has closed.
 */
function saved(download: Download) {
  saveDownload(download);
  notifySuccess(`CSV exported: ${download.filename}`);
}

/**
 * The catalogue's way in and out as CSV: 'Import CSV' (the import screen) and 'Export CSV' (the
 * products of the list's search, sort and filter, saved as a file), then where the stock is:
 * 'Export stock by location' and 'Import stock by location' (its screen: counts by location).
 * Buttons from `sm` up (the stock ones in a menu); on a phone one menu, so that the first screen
 * still shows three products.
 */
export function CsvActions({ params }: { params: ProductListParams }) {
  const exporting = useExportProducts({
    mutationConfig: { onSuccess: saved, onError: notifyError },
  });
  const exportCsv = () => exporting.mutate(params);
  const exportingStock = useExportStockByLocation({
    mutationConfig: { onSuccess: saved, onError: notifyError },
  });
  const exportStock = () => exportingStock.mutate();
  const catalogue = useCatalogueRef();
  const may = useCatalogueCan();
  const mayImport = may('editProducts');
  const mayExport = may('export');
  const mayCount = may('adjustStock');
  if (!mayImport && !mayExport && !mayCount) return null;
  const importHref = paths.products.import.getHref(catalogue);
  const importStockHref = paths.products.importStock.getHref(catalogue);
  const stockItems = (
    <>
      {mayExport && (
        <button
          type="button"
          className={itemClasses}
          {...menuItemProps}
          disabled={exportingStock.isPending}
          onClick={exportStock}
        >
          {exportingStock.isPending ? 'Exporting...' : 'Export stock by location'}
        </button>
      )}
      {mayCount && (
        <Link to={importStockHref} className={itemClasses} {...menuItemProps}>
          Import stock by location
        </Link>
      )}
    </>
  );
  return (
    <>
      <div className="sm:hidden">
        <Menu
          buttonClassName={buttonClasses('secondary', 'px-3')}
          menuClassName={menuPanelClasses}
          button={
            <>
              CSV
              <MenuChevron />
            </>
          }
        >
          {mayImport && (
            <Link to={importHref} className={itemClasses} {...menuItemProps}>
              Import CSV
            </Link>
          )}
          {mayExport && (
            <button
              type="button"
              className={itemClasses}
              {...menuItemProps}
              disabled={exporting.isPending}
              onClick={exportCsv}
            >
              {exporting.isPending ? 'Exporting...' : 'Export CSV'}
            </button>
          )}
          {stockItems}
        </Menu>
      </div>
      <div className="hidden gap-3 sm:flex">
        {mayImport && (
          <Link to={importHref} className={buttonClasses('secondary')}>
            Import CSV
          </Link>
        )}
        {mayExport && (
          <Button
            variant="secondary"
            busy={exporting.isPending}
            busyLabel="Exporting..."
            onClick={exportCsv}
          >
            Export CSV
          </Button>
        )}
        {(mayExport || mayCount) && (
          <Menu
            buttonClassName={buttonClasses('secondary')}
            menuClassName={menuPanelClasses}
            button={
              <>
                Stock by location
                <MenuChevron />
              </>
            }
          >
            {stockItems}
          </Menu>
        )}
      </div>
    </>
  );
}
