const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * US dollars in the en-US format, always with 2 decimals: 1234.5 → "$1,234.50". A total too large
 * for a number comes as an exact decimal string, which Intl formats digit for digit.
 */
export const formatPrice = (price: number | string) =>
  usd.format(price as Parameters<typeof usd.format>[0]);

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count with thousands separators: 2000000000 → "2,000,000,000". */
export const formatCount = (value: number) => count.format(value);

/** A stock count in units: "1 unit", "12 units", "2,000,000,000 units". */
export const formatUnits = (stock: number) =>
  `${formatCount(stock)} ${stock === 1 ? 'unit' : 'units'}`;

/**
 * Made once, like the number formats above: making a date formatter costs some fifty times as
 * much as formatting with one, and a product's history formats a date a row.
 */
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

const shortTime = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** A time of day in the browser's own short format: "2:05 PM", "14:05". */
export const formatShortTime = (time: number) => shortTime.format(new Date(time));
