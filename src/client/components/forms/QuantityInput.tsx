import type { InputHTMLAttributes, Ref } from 'react';
import { inlineControlClasses } from '@/components/ui/Field.js';

type QuantityInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'inputMode' | 'step' | 'min' | 'onChange'
> & {
  /** The smallest quantity the line takes. */
  min?: 0 | 1;
  onChange: (text: string) => void;
  ref?: Ref<HTMLInputElement> | undefined;
};

/** A narrow field for a whole number of units on a line of a list (a recount, an order). */
export function QuantityInput({ min = 0, className = '', onChange, ...rest }: QuantityInputProps) {
  return (
    <input
      {...rest}
      type="number"
      inputMode="numeric"
      min={min}
      step={1}
      className={`${className} w-24 ${inlineControlClasses}`.trim()}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
