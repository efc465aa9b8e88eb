import { Link } from 'react-router';

interface LinkedAmountsProps<T extends { id: string; name: string }> {
  label: string;
  items: readonly T[];
  /** An item's page. */
  href: (item: T) => string;
  /** How much it has, as shown ("24 units"). */
  amount: (item: T) => string;
}

/**
 * A named list of things, each linked by its name and with an amount at the row's end (a
 * location's sub-locations, what it holds): a long name wraps, the amount stays on one line.
 */
export function LinkedAmounts<T extends { id: string; name: string }>({
  label,
  items,
  href,
  amount,
}: LinkedAmountsProps<T>) {
  return (
    <ul aria-label={label} className="mt-2 divide-y divide-gray-100">
      {items.map((item) => (
        <li key={item.id} className="flex gap-3 py-2">
          <Link to={href(item)} className="min-w-0 wrap-anywhere text-indigo-700 hover:underline">
            {item.name}
          </Link>
          <span className="ml-auto shrink-0 text-sm text-gray-700">{amount(item)}</span>
        </li>
      ))}
    </ul>
  );
}
