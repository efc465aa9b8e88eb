import { useId, useRef, useState, type FormEvent } from 'react';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import {
  LABEL_LAYOUT_NAMES,
  LABEL_LAYOUTS,
  LABELS_MAX,
  LABELS_PER_PAGE,
  type LabelLayout,
} from '@shared/labels.js';
import { Button } from '@/components/ui/Button.js';
import { SelectField, TextField } from '@/components/ui/Field.js';
import type { Download } from '@/lib/api-download.js';
import { saveDownload } from '@/lib/download.js';
import { formatCount } from '@/lib/format.js';
import { notifyError } from '@/lib/notify.js';
import { usePrintLabels } from '../../api/print-labels.js';

/** The layout chosen last, kept for the next print: a shop has one kind of label stock. */
const LAYOUT_KEY = 'labelLayout';

function rememberedLayout(): LabelLayout {
  const stored = localStorage.getItem(LAYOUT_KEY);
  return (LABEL_LAYOUTS as readonly string[]).includes(stored ?? '')
    ? (stored as LabelLayout)
    : 'avery-l7160';
}

/**
 * Shows the PDF in the tab opened for it on the click (a tab opened after the download would be
 * blocked as a pop-up); without a tab, the PDF is saved instead.
 */
function showPdf(tab: Window | null, download: Download) {
  if (!tab) {
    saveDownload(download);
    return;
  }
  const url = URL.createObjectURL(download.blob);
  tab.location.href = url;
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A modal dialog where the browser has them; elsewhere (older engines, jsdom) an open one. */
function openDialog(dialog: HTMLDialogElement | null) {
  if (typeof dialog?.showModal === 'function') dialog.showModal();
  else dialog?.setAttribute('open', '');
}

function closeDialog(dialog: HTMLDialogElement | null) {
  if (typeof dialog?.close === 'function') dialog.close();
  else dialog?.removeAttribute('open');
}

const whole = (text: string, fallback: number) => {
  const value = Number(text);
  return Number.isInteger(value) ? value : fallback;
};

/**
 * 'Print labels' for some products: a dialog to choose the label stock, the copies of each label
 * and, on a sheet already partly used, how many labels to leave out; then the PDF opens in a tab.
 */
export function PrintLabelsButton({ ids }: { ids: string[] }) {
  return useCatalogueCan()('printLabels') ? <LabelsDialogButton ids={ids} /> : null;
}

function LabelsDialogButton({ ids }: { ids: string[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const tab = useRef<Window | null>(null);
  const titleId = useId();
  const [layout, setLayout] = useState<LabelLayout>(rememberedLayout);
  const [copies, setCopies] = useState('1');
  const [skip, setSkip] = useState('0');
  const print = usePrintLabels({
    mutationConfig: {
      onSuccess: (download) => {
        showPdf(tab.current, download);
        closeDialog(dialog.current);
      },
      onError: (error) => {
        tab.current?.close();
        notifyError(error);
      },
    },
  });
  const perPage = LABELS_PER_PAGE[layout];
  const copiesNumber = whole(copies, 0);
  const skipNumber = perPage > 1 ? whole(skip, -1) : 0;
  const total = ids.length * copiesNumber;
  const problem =
    copiesNumber < 1
      ? 'Copies must be a whole number of at least 1.'
      : total > LABELS_MAX
        ? `At most ${formatCount(LABELS_MAX)} labels at once: this would be ${formatCount(total)}.`
        : skipNumber < 0 || skipNumber >= perPage
          ? `Labels already used must be a whole number from 0 to ${perPage - 1}.`
          : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    localStorage.setItem(LAYOUT_KEY, layout);
    tab.current = window.open('', '_blank');
    print.mutate({ ids, layout, copies: copiesNumber, skip: skipNumber });
  };

  return (
    <>
      <Button variant="secondary" onClick={() => openDialog(dialog.current)}>
        Print labels
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-xl backdrop:bg-gray-900/40"
      >
        <form onSubmit={submit} className="space-y-5 p-6" noValidate>
          <h2 id={titleId} className="text-lg font-semibold text-gray-900">
            Print labels for{' '}
            {ids.length === 1 ? 'this product' : `${formatCount(ids.length)} products`}
          </h2>
          <SelectField
            label="Labels"
            id={`${titleId}-layout`}
            value={layout}
            onChange={(event) => setLayout(event.target.value as LabelLayout)}
          >
            {LABEL_LAYOUTS.map((value) => (
              <option key={value} value={value}>
                {LABEL_LAYOUT_NAMES[value]}
              </option>
            ))}
          </SelectField>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Copies of each"
              type="number"
              inputMode="numeric"
              min="1"
              max={LABELS_MAX}
              step="1"
              value={copies}
              onChange={(event) => setCopies(event.target.value)}
            />
            {perPage > 1 && (
              <TextField
                label="Labels already used"
                hint="On the first sheet, from the top left."
                type="number"
                inputMode="numeric"
                min="0"
                max={perPage - 1}
                step="1"
                value={skip}
                onChange={(event) => setSkip(event.target.value)}
              />
            )}
          </div>
          {problem && (
            <p role="alert" className="text-sm text-red-700">
              {problem}
            </p>
          )}
          <div className="flex justify-end gap-3 border-t border-gray-200 pt-5">
            <Button variant="secondary" onClick={() => closeDialog(dialog.current)}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={problem !== undefined}
              busy={print.isPending}
              busyLabel="Making the PDF..."
            >
              Open PDF
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
