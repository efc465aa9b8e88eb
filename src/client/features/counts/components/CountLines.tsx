import { useState } from 'react';
import type { CountLine } from '@shared/schemas/counts/counts.js';
import { FormFailure } from '@/components/ui/Alert.js';
import { Button } from '@/components/ui/Button.js';
import { ScrollRegion, TableHead, tableCell } from '@/components/controls/Table.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatDateTime, formatPrice } from '@/lib/format.js';
import { notifySuccess } from '@/lib/notify.js';
import { lineKey } from '../api/counts.js';
import { signed } from './count-texts.js';
import { useCountLine } from './use-count-line.js';
import { QuantityInput } from '@/components/forms/QuantityInput.js';

interface CountLinesProps {
  countId: string;
  lines: CountLine[];
  /** Whether the answers show `expected` (and so the variances). */
  showsExpected: boolean;
  /** Whether the lines may be chosen for a recount (a count in review, for one who counts). */
  recount: boolean;
  pathOf: (locationId: string) => string;
}

/**
 * The count's lines: what was counted where, by whom and when; where the API gives them, what was
 * expected and the variance in units and at cost. In review, chosen lines are counted again.
 */
export function CountLines({ countId, lines, showsExpected, recount, pathOf }: CountLinesProps) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [recounting, setRecounting] = useState(false);
  const columns = [
    ...(recount ? [{ label: 'Recount' }] : []),
    { label: 'Product' },
    { label: 'Location' },
    { label: 'Counted', numeric: true },
    ...(showsExpected
      ? [
          { label: 'Expected', numeric: true },
          { label: 'Variance', numeric: true },
          { label: 'At cost', numeric: true },
        ]
      : []),
    { label: 'Counted by' },
  ];
  const toggle = (key: string) =>
    setChosen((before) => {
      const next = new Set(before);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  return (
    <div className="space-y-4">
      <ScrollRegion label="Lines">
        <table className="min-w-full divide-y divide-gray-200 text-sm">
          <TableHead columns={columns} />
          <tbody className="divide-y divide-gray-100">
            {lines.map((line) => {
              const key = lineKey(line);
              return (
                <tr key={key}>
                  {recount && (
                    <td className={tableCell}>
                      <input
                        type="checkbox"
                        className="size-4 rounded border-gray-300"
                        aria-label={`Recount ${line.name} at ${pathOf(line.locationId)}`}
                        checked={chosen.has(key)}
                        onChange={() => toggle(key)}
                      />
                    </td>
                  )}
                  <td className={tableCell}>
                    <span className="font-medium text-gray-900">{line.name}</span>
                    {line.sku && <span className="block text-gray-600">{line.sku}</span>}
                  </td>
                  <td className={tableCell}>{pathOf(line.locationId)}</td>
                  <td className={`${tableCell} text-right font-semibold tabular-nums`}>
                    {line.counted}
                  </td>
                  {showsExpected && (
                    <>
                      <td className={`${tableCell} text-right tabular-nums`}>
                        {line.expected ?? ''}
                      </td>
                      <td className={`${tableCell} text-right tabular-nums`}>
                        {line.variance === undefined ? '' : signed(line.variance)}
                      </td>
                      <td className={`${tableCell} text-right tabular-nums`}>
                        {line.varianceAtCost === undefined || line.varianceAtCost === null
                          ? ''
                          : formatPrice(line.varianceAtCost)}
                      </td>
                    </>
                  )}
                  <td className={tableCell}>
                    {line.countedBy?.name ?? 'Someone'}
                    <span className="block text-gray-600">{formatDateTime(line.countedAt)}</span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      {recount && chosen.size > 0 && !recounting && (
        <div className="px-4 pb-4">
          <Button variant="secondary" onClick={() => setRecounting(true)}>
            Recount chosen lines
          </Button>
        </div>
      )}
      {recounting && (
        <Recount
          countId={countId}
          lines={lines.filter((line) => chosen.has(lineKey(line)))}
          pathOf={pathOf}
          onDone={() => {
            setRecounting(false);
            setChosen(new Set());
          }}
        />
      )}
    </div>
  );
}

/** The chosen lines, each with a box for its new count; saved one after another. */
function Recount({
  countId,
  lines,
  pathOf,
  onDone,
}: {
  countId: string;
  lines: CountLine[];
  pathOf: (locationId: string) => string;
  onDone: () => void;
}) {
  const send = useCountLine(countId);
  const [values, setValues] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const parsed = lines.map((line) => ({ line, value: Number(values[lineKey(line)] ?? '') }));
  const valid = lines.every((line) => {
    const text = values[lineKey(line)] ?? '';
    return text.trim() !== '' && Number.isInteger(Number(text)) && Number(text) >= 0;
  });
  return (
    <form
      aria-label="Recount"
      className="space-y-3 px-4 pb-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid) return;
        setBusy(true);
        setFailure(undefined);
        void (async () => {
          try {
            for (const { line, value } of parsed) {
              await send({
                product: { id: line.productId, name: line.name },
                location: { id: line.locationId, path: pathOf(line.locationId) },
                counted: value,
                add: false,
              });
            }
            notifySuccess(`${lines.length} ${lines.length === 1 ? 'line' : 'lines'} recounted`);
            onDone();
          } catch (error) {
            setFailure(getErrorMessage(error));
          } finally {
            setBusy(false);
          }
        })();
      }}
    >
      <h3 className="text-sm font-semibold text-gray-900">Recount</h3>
      {lines.map((line) => {
        const key = lineKey(line);
        return (
          <label key={key} className="flex items-center gap-3 text-sm text-gray-900">
            <span className="min-w-0 flex-1">
              {line.name} at {pathOf(line.locationId)}
            </span>
            <QuantityInput
              value={values[key] ?? ''}
              onChange={(text) => setValues({ ...values, [key]: text })}
            />
          </label>
        );
      })}
      <FormFailure message={failure} />
      <div className="flex gap-3">
        <Button type="submit" disabled={!valid} busy={busy} busyLabel="Saving...">
          Save recount
        </Button>
        <Button variant="secondary" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
