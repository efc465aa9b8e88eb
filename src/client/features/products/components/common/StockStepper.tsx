import { useId, useState, type FormEvent } from 'react';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { MAX_STOCK, STOCK_NOTE_MAX, type StockReason } from '@shared/constants.js';
import { V } from '@shared/messages.js';
import { SelectField, controlClasses, inlineControlClasses } from '@/components/ui/Field.js';
import { formatUnits } from '@/lib/format.js';
import { notifyError } from '@/lib/notify.js';
import { useChangeStock } from '@/lib/stock-change/index.js';
import { ReasonOptions } from '../../stock-reasons.js';

interface StockStepperProps {
  product: { id: string; name: string; stock: number };
  /** Roomier controls, and an optional reason and note for each change (the detail page). */
  large?: boolean;
  /** −/+ and Set stay on one line (a table cell), rather than wrap in a narrow card. */
  oneLine?: boolean;
  /** The location changed, with what it holds (none: the default location, the total shown). */
  location?: { id: string; path: string; held: number } | undefined;
}

/** Why a count typed into 'Set' is not one, or undefined (the API's rules and wording). */
function targetError(typed: string): string | undefined {
  if (typed === '') return V.stockRequired;
  // As the API reads it (stockText in the shared schemas, which this chunk does not load): a
  // leading U+2212 minus is a minus.
  const text = typed.trim().replace(/^\u2212/, '-');
  if (!/^-?\d+(\.\d+)?$/.test(text)) return V.stockInvalid;
  const value = Number(text);
  if (value < 0) return V.stockNegative;
  if (!Number.isInteger(value)) return V.stockInteger;
  if (value > MAX_STOCK) return V.stockMax;
  return undefined;
}

const stepClasses =
  'grid place-items-center font-semibold text-gray-900 hover:bg-gray-50 focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:text-gray-400 disabled:hover:bg-transparent';

/**
 * −/+ and 'Set' for a product's stock (lib/stock-change). Each change shows at once; a refused one
 * is taken back and its reason shown in a toast. Several
 * clicks in a row each send their own change. Screen readers hear the new count.
 */
export function StockStepper(props: StockStepperProps) {
  // Only for a role that may adjust stock (the server refuses the others).
  return useCatalogueCan()('adjustStock') ? <Stepper {...props} /> : null;
}

function Stepper({ product, large = false, oneLine = false, location }: StockStepperProps) {
  const { name } = product;
  const stock = location?.held ?? product.stock;
  const formId = useId();
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState<StockReason | ''>('');
  const [error, setError] = useState<string>();
  const [changed, setChanged] = useState(false);
  const changeStock = useChangeStock('stepper');

  /** Sends a change with the reason and note given (the detail page's), which then clear. */
  const change = (amount: { delta: number } | { count: number }) => {
    setChanged(true);
    changeStock({
      product,
      location,
      ...amount,
      reason: reason || undefined,
      note: note.trim() || undefined,
    }).catch(notifyError);
    setReason('');
    setNote('');
  };

  const onSet = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    const problem = targetError(value);
    setError(problem);
    if (problem) return;
    setText('');
    // The number counted, not a difference from the number on screen, which may be stale.
    change({ count: Number(value) });
  };

  // On a phone's card the stepper shares a row with Edit and Delete: a little smaller.
  const size = large ? 'size-11 text-xl' : 'size-8 text-lg sm:size-9';
  const errorId = `${formId}-error`;
  return (
    <div className="min-w-0">
      <div className={`flex items-center gap-1.5 sm:gap-2 ${oneLine ? '' : 'flex-wrap'}`}>
        <div className="inline-flex shrink-0 divide-x divide-gray-300 overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-gray-300 ring-inset">
          <button
            type="button"
            className={`${stepClasses} ${size}`}
            aria-label={`Decrease stock of ${name}`}
            disabled={stock <= 0}
            onClick={() => change({ delta: -1 })}
          >
            <span aria-hidden="true">−</span>
          </button>
          <button
            type="button"
            className={`${stepClasses} ${size}`}
            aria-label={`Increase stock of ${name}`}
            disabled={stock >= MAX_STOCK}
            onClick={() => change({ delta: 1 })}
          >
            <span aria-hidden="true">+</span>
          </button>
        </div>
        <form
          id={formId}
          noValidate
          onSubmit={onSet}
          className="flex min-w-0 items-center gap-1.5 sm:gap-2"
        >
          <input
            type="text"
            inputMode="numeric"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setError(undefined);
            }}
            aria-label={`New stock of ${name}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            placeholder={String(stock)}
            className={`${inlineControlClasses} ${large ? 'h-11 w-28' : 'h-8 w-16 px-2 sm:h-9 sm:w-20 sm:px-3'}`}
          />
          <button
            type="submit"
            aria-label={`Set stock of ${name}`}
            className={`shrink-0 rounded-lg bg-white px-2.5 text-sm font-semibold text-gray-900 shadow-sm ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${large ? 'h-11' : 'h-8 sm:h-9'}`}
          >
            Set
          </button>
        </form>
      </div>
      {large && (
        <div className="mt-3 grid gap-3 sm:grid-cols-[12rem_1fr]">
          <SelectField
            label="Reason (optional)"
            id={`${formId}-reason`}
            value={reason}
            onChange={(event) => setReason(event.target.value as StockReason | '')}
          >
            <ReasonOptions none="None" />
          </SelectField>
          <div>
            <label htmlFor={`${formId}-note`} className="block text-sm font-medium text-gray-900">
              Note (optional)
            </label>
            <input
              id={`${formId}-note`}
              form={formId}
              type="text"
              value={note}
              maxLength={STOCK_NOTE_MAX}
              onChange={(event) => setNote(event.target.value)}
              placeholder="Delivery from the supplier, a stock count..."
              className={`mt-2 ${controlClasses}`}
            />
          </div>
        </div>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      <span aria-live="polite" className="sr-only">
        {changed ? `Stock of ${name}: ${formatUnits(stock)}` : ''}
      </span>
    </div>
  );
}
