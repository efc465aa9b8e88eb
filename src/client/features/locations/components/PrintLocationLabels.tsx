import { useId, useState } from 'react';
import { LABEL_LAYOUT_NAMES, LABEL_LAYOUTS, type LabelLayout } from '@shared/labels.js';
import { Button } from '@/components/ui/Button.js';
import { inlineControlClasses } from '@/components/ui/Field.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { saveDownload } from '@/lib/download.js';
import { notifyError } from '@/lib/notify.js';
import { downloadLocationLabels } from '../api/locations.js';

/**
 * Labels of some locations on the chosen sheet or roll: the PDF opens in a tab opened on the
 * click (one opened after the download would be blocked as a pop-up), else it is saved.
 */
export function PrintLocationLabels({ ids, label }: { ids: string[]; label: string }) {
  const catalogue = useCatalogueRef();
  const [layout, setLayout] = useState<LabelLayout>('avery-l7160');
  const [busy, setBusy] = useState(false);
  const layoutField = useId();
  if (!useCatalogueCan()('printLabels')) return null;
  const print = async () => {
    const tab = window.open('', '_blank');
    setBusy(true);
    try {
      const download = await downloadLocationLabels(catalogue, ids, layout);
      if (!tab) return saveDownload(download);
      const url = URL.createObjectURL(download.blob);
      tab.location.href = url;
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      tab?.close();
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };
  // A select is as wide as its longest choice ('Avery L7160 (A4, 21 labels of 63.5 × 38.1 mm)'),
  // wider than a phone's screen beside a heading: held to the row's width, it clips the shown
  // text instead of pushing the page sideways (the open list still shows every name whole).
  return (
    <div className="flex max-w-full min-w-0 flex-wrap items-center gap-2">
      <label htmlFor={layoutField} className="sr-only">
        Label stock
      </label>
      <select
        id={layoutField}
        className={`max-w-full min-w-0 ${inlineControlClasses}`}
        value={layout}
        onChange={(event) => setLayout(event.target.value as LabelLayout)}
      >
        {LABEL_LAYOUTS.map((each) => (
          <option key={each} value={each}>
            {LABEL_LAYOUT_NAMES[each]}
          </option>
        ))}
      </select>
      <Button
        variant="secondary"
        busy={busy}
        busyLabel="Making labels..."
        onClick={() => void print()}
      >
        {label}
      </Button>
    </div>
  );
}
