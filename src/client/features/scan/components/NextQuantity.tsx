import { useState } from 'react';
import { TextField } from '@/components/ui/Field.js';

/**
 * How many units the next scan receives or picks (a case of 12: one scan, ×12). Enter or leaving
 * the field sets it, and hands the keys back to the scanner.
 */
export function NextQuantity({
  value,
  onChange,
}: {
  value: number;
  onChange: (quantity: number) => void;
}) {
  const [typed, setTyped] = useState<string>();
  const shown = typed ?? String(value);
  const apply = () => {
    const quantity = Number(shown);
    onChange(Number.isInteger(quantity) && quantity >= 1 ? Math.min(quantity, 10_000) : 1);
    setTyped(undefined);
  };
  return (
    <form
      className="flex items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
        (document.activeElement as HTMLElement | null)?.blur();
      }}
    >
      <TextField
        label="Quantity for the next scan"
        type="number"
        inputMode="numeric"
        min={1}
        max={10_000}
        step={1}
        className="w-44"
        value={shown}
        onChange={(event) => setTyped(event.target.value)}
        onBlur={apply}
        onKeyDown={(event) => {
          if (event.key === 'Escape') event.currentTarget.blur();
        }}
      />
      {value > 1 && (
        <p className="pb-2 text-base font-semibold text-indigo-800" aria-live="polite">
          Next scan ×{value}
        </p>
      )}
    </form>
  );
}
