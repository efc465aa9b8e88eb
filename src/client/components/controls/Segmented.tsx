interface SegmentedProps<T> {
  /** What the group chooses, for assistive technology ('Stock filter'). */
  label: string;
  /**
   * Each choice. `detail` follows the label, for screen readers only on a phone where room is
   * short ('Low stock' + ' (1–10)'); `count`, when known, is shown beside it.
   */
  options: readonly {
    value: T;
    label: string;
    detail?: string;
    count?: number | undefined;
  }[];
  value: T;
  onChange: (value: T) => void;
}

/**
 * A row of buttons of which one is pressed (aria-pressed): a small choice that applies at once,
 * such as a filter or a view.
 */
export function Segmented<T>({ label, options, value, onChange }: SegmentedProps<T>) {
  return (
    <div
      role="group"
      aria-label={label}
      className="inline-flex max-w-full rounded-lg bg-gray-200/70 p-1"
    >
      {options.map((option) => {
        const pressed = option.value === value;
        // px-1.5 on a phone: four stock filters and their counts fit in 390 px.
        return (
          <button
            key={option.label}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(option.value)}
            className={`inline-flex items-center gap-1 rounded-md px-1.5 py-1 text-sm sm:gap-1.5 font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 sm:px-3 ${
              pressed ? 'bg-white text-gray-900 shadow-sm' : 'text-gray-700 hover:text-gray-900'
            }`}
          >
            <span>
              {option.label}
              {option.detail && ' '}
              {option.detail && <span className="max-sm:sr-only">{option.detail}</span>}
            </span>
            {/* The space keeps label and count apart in the button's accessible name. */}
            {option.count !== undefined && ' '}
            {option.count !== undefined && (
              <span
                className={`rounded-full px-1.5 text-xs tabular-nums ${pressed ? 'bg-indigo-50 text-indigo-800' : 'bg-white/70 text-gray-700'}`}
              >
                {option.count.toLocaleString('en-US')}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
