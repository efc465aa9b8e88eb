const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** US dollars in the en-US format, always with 2 decimals: 1234.5 → "$1,234.50". */
export const formatPrice = (price: number) => usd.format(price);

/** A stock count in units: "1 unit", "12 units". */
export const formatUnits = (stock: number) => `${stock} ${stock === 1 ? 'unit' : 'units'}`;

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
