import { useLayoutEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { CODE_LENGTH } from '@shared/constants.js';

interface CodeInputProps {
  /** Called once all the boxes hold a digit, with the whole code. */
  onComplete: (code: string) => void;
  disabled?: boolean;
  autoFocus?: boolean;
  /** The id of the text that names the group (e.g. the instruction above the boxes). */
  labelledBy?: string;
  length?: number;
}

const onlyDigits = (text: string) => text.replace(/\D/g, '');

/**
 * One digit per box: typing advances, Backspace goes back, a pasted (or auto-filled) code spreads
 * over the boxes, and the last digit submits. To clear it, remount it (change its `key`).
 */
export function CodeInput({
  onComplete,
  disabled = false,
  autoFocus = true,
  labelledBy,
  length = CODE_LENGTH,
}: CodeInputProps) {
  const [digits, setDigits] = useState<string[]>(() => Array.from({ length }, () => ''));
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

  // React focused an `autoFocus` element on mount; Preact, which runs the app (ADR 010), leaves it
  // to the browser, which honours the attribute once per page load at most. So focus it here, as
  // the boxes appear (a layout effect: a passive one runs a frame later).
  useLayoutEffect(() => {
    if (autoFocus) boxes.current[0]?.focus();
    // On mount only: a re-render must not pull the focus back to the first box.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const focusBox = (index: number) => {
    const box = boxes.current[Math.max(0, Math.min(length - 1, index))];
    box?.focus();
    box?.select();
  };

  const update = (next: string[], focusIndex: number) => {
    setDigits(next);
    focusBox(focusIndex);
    if (next.every((digit) => digit !== '')) onComplete(next.join(''));
  };

  /** Writes `text`'s digits from box `start` on; a whole code always starts at the first box. */
  const fill = (start: number, text: string) => {
    const incoming = onlyDigits(text);
    if (incoming === '') return;
    const from = incoming.length >= length ? 0 : start;
    const next = [...digits];
    const written = incoming.slice(0, length - from).split('');
    written.forEach((digit, offset) => {
      next[from + offset] = digit;
    });
    update(next, Math.min(from + written.length, length - 1));
  };

  const handleChange = (index: number, value: string) => {
    const typed = onlyDigits(value);
    if (typed.length > 1) {
      // A key typed into a filled box keeps the new digit; a longer text is an auto-filled code.
      const previous = digits[index] ?? '';
      if (typed.length === 2 && previous !== '' && typed.includes(previous)) {
        const fresh = typed[0] === previous ? typed[1]! : typed[0]!;
        fill(index, fresh);
      } else {
        fill(index, typed);
      }
      return;
    }
    if (typed === '') {
      if (value === '') update(digits.with(index, ''), index);
      return;
    }
    fill(index, typed);
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      if (digits[index]) update(digits.with(index, ''), index);
      else if (index > 0) update(digits.with(index - 1, ''), index - 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const handlePaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    fill(index, event.clipboardData.getData('text'));
  };

  return (
    <div role="group" aria-labelledby={labelledBy} className="flex justify-center gap-2 sm:gap-3">
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(element) => {
            boxes.current[index] = element;
          }}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={`Digit ${index + 1} of ${length}`}
          value={digit}
          disabled={disabled}
          onChange={(event) => handleChange(index, event.target.value)}
          onKeyDown={(event) => handleKeyDown(index, event)}
          onPaste={(event) => handlePaste(index, event)}
          onFocus={(event) => event.target.select()}
          className="size-11 rounded-lg border-0 bg-white text-center text-xl font-semibold text-gray-900 shadow-sm ring-1 ring-inset ring-gray-300 focus:ring-2 focus:ring-indigo-600 focus:outline-none disabled:bg-gray-100 disabled:text-gray-600 sm:size-12 sm:text-2xl"
        />
      ))}
    </div>
  );
}

/**
 * Boxes for a code that may be refused: `onCode` sends it and resolves whether it was accepted; a
 * refused code is cleared (the boxes remounted), which puts the focus back on the first box.
 */
export function RetriedCodeInput({
  onCode,
  ...props
}: Omit<CodeInputProps, 'onComplete'> & { onCode: (code: string) => Promise<boolean> }) {
  const [attempt, setAttempt] = useState(0);
  const submit = async (code: string) => {
    if (!(await onCode(code))) setAttempt((count) => count + 1);
  };
  return <CodeInput key={attempt} {...props} onComplete={(code) => void submit(code)} />;
}
