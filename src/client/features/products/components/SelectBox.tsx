interface SelectBoxProps {
  label: string;
  checked: boolean;
  /** `range`: the click was a Shift-click (choose everything from the last one chosen). */
  onSelect: (range: boolean) => void;
  className?: string;
}

/**
 * The checkbox that chooses a product for a bulk action. A click (or Space) toggles it; with Shift
 * held, the list takes the range from the last one chosen. Its box is 24 px, on a white pad so that
 * it shows on any picture.
 */
export function SelectBox({ label, checked, onSelect, className = '' }: SelectBoxProps) {
  return (
    <span className={`grid place-items-center rounded-md bg-white/90 p-1 shadow-sm ${className}`}>
      <input
        type="checkbox"
        aria-label={label}
        checked={checked}
        // A click always flips this box (a Shift-click gives the range the box's new state), so
        // the browser's own toggle and the list's state agree. React reports a checkbox's click
        // as its change; Space clicks it too, without Shift.
        onChange={(event) => onSelect((event.nativeEvent as MouseEvent).shiftKey === true)}
        className="size-5 cursor-pointer rounded accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      />
    </span>
  );
}
