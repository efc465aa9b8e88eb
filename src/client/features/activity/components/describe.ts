import type { ActivityKind, ActivitySource } from '@shared/activity.js';
import type { ActivityEntry } from '@shared/schemas/activity.js';

/** Where a change was made, as the log shows it. */
export const SOURCE_LABELS: Record<ActivitySource, string> = {
  scan: 'Scan',
  stepper: 'Stepper',
  form: 'Form',
  activity: 'Activity',
  import: 'Import',
  api: 'API',
};

/** The kinds as the filter offers them. */
export const KIND_LABELS: Record<ActivityKind, string> = {
  'stock.moved': 'Stock changes',
  'stock.transferred': 'Stock moves',
  'stock.imported': 'Stock counts imported',
  'product.created': 'Products created',
  'product.updated': 'Products edited',
  'product.deleted': 'Products deleted',
  'products.deleted': 'Bulk deletes',
  'import.done': 'Imports',
  'member.added': 'Members joined',
  'member.role_changed': 'Role changes',
  'member.removed': 'Members removed',
  'catalogue.renamed': 'Renames',
  'catalogue.reorder_point_changed': 'Reorder point changes',
  'supplier.created': 'Suppliers added',
  'supplier.updated': 'Suppliers edited',
  'supplier.deleted': 'Suppliers deleted',
  'product.suppliers_changed': "Products' suppliers",
  'purchase_order.created': 'Purchase orders drafted',
  'purchase_order.updated': 'Purchase orders edited',
  'purchase_order.ordered': 'Purchase orders placed',
  'purchase_order.cancelled': 'Purchase orders cancelled',
  'purchase_order.deleted': 'Purchase orders deleted',
  'purchase_order.received': 'Receipts',
  'purchase_order.sent': 'Purchase orders sent',
  'count.posted': 'Counts posted',
  'location.created': 'Locations added',
  'location.updated': 'Locations edited',
  'location.deleted': 'Locations deleted',
  'webhook.created': 'Webhooks added',
  'webhook.updated': 'Webhooks edited',
  'webhook.deleted': 'Webhooks deleted',
  'webhook.secret_rotated': 'Webhook secrets replaced',
  undo: 'Undos',
};

const MONEY_FIELDS = new Set(['price', 'cost']);

/** A field's value as a reader wants it: cents as 3.00, tags as a list, a picture as yes/no. */
function shown(field: string, value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (MONEY_FIELDS.has(field) && typeof value === 'number') return (value / 100).toFixed(2);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

const changeText = (changes: ActivityEntry['changes']) =>
  Object.entries(changes ?? {})
    .map(([field, { before, after }]) =>
      field === 'image'
        ? 'picture replaced'
        : `${field} ${shown(field, before)} → ${shown(field, after)}`,
    )
    .join(', ');

const numberOf = (value: unknown) =>
  typeof value === 'object' && value !== null && 'number' in value
    ? String(value.number)
    : 'a purchase order';

const pathOf = (value: unknown) =>
  typeof value === 'object' && value !== null && 'path' in value
    ? String(value.path)
    : 'a location';

/** A webhook as its entry names it: its URL's origin (the rest is never logged). */
const webhookOf = (value: unknown) =>
  typeof value === 'object' && value !== null && 'url' in value
    ? `the webhook ${String(value.url)}`
    : 'a webhook';

const nameOf = (value: unknown) =>
  typeof value === 'object' && value !== null && 'name' in value ? String(value.name) : 'someone';

/** What happened, in one line: "Stock of Vase: 4 → 7", "Edited Vase: price 3.00 → 4.50". */
export function describeEntry(entry: ActivityEntry): string {
  const product = entry.product?.name ?? 'a product';
  const { data } = entry;
  switch (entry.kind) {
    case 'stock.moved':
      return `Stock of ${product}: ${String(data.oldStock)} → ${String(data.newStock)}`;
    case 'stock.transferred': {
      const units = Number(data.units);
      const count = Number(data.products);
      const what = count === 1 ? product : `${count} products`;
      return `Moved ${units} ${units === 1 ? 'unit' : 'units'} of ${what} between locations`;
    }
    case 'product.created':
      return `Created ${product}`;
    case 'product.updated':
      return `Edited ${product}: ${changeText(entry.changes)}`;
    case 'product.deleted':
      return `Deleted ${product}`;
    case 'products.deleted': {
      const count = Array.isArray(data.products) ? data.products.length : 0;
      return `Deleted ${count} ${count === 1 ? 'product' : 'products'}`;
    }
    case 'stock.imported': {
      const changed = Number(data.changed);
      const products = Number(data.products);
      return `Imported stock counts by location: ${changed} ${changed === 1 ? 'quantity' : 'quantities'} of ${products} ${products === 1 ? 'product' : 'products'} changed`;
    }
    case 'import.done':
      return `Imported products: ${String(data.created)} created, ${String(data.updated)} updated`;
    case 'member.added':
      return `${nameOf(data.member)} joined as ${String(data.role)}`;
    case 'member.role_changed':
      return `Changed the role of ${nameOf(data.member)}: ${changeText(entry.changes).replace(/^role /, '')}`;
    case 'member.removed':
      return data.left ? `${nameOf(data.member)} left` : `Removed ${nameOf(data.member)}`;
    case 'catalogue.renamed':
      return `Renamed the catalogue: ${changeText(entry.changes).replace(/^name /, '')}`;
    case 'catalogue.reorder_point_changed':
      return `Changed the catalogue's reorder point: ${changeText(entry.changes).replace(/^reorderPoint /, '')}`;
    case 'supplier.created':
      return `Added the supplier ${nameOf(data.supplier)}`;
    case 'supplier.updated':
      return `Edited the supplier ${nameOf(data.supplier)}`;
    case 'supplier.deleted':
      return `Deleted the supplier ${nameOf(data.supplier)}`;
    case 'product.suppliers_changed':
      return `Changed the suppliers of ${product}`;
    case 'purchase_order.created':
      return `Drafted ${numberOf(data.purchaseOrder)}`;
    case 'purchase_order.updated':
      return `Edited ${numberOf(data.purchaseOrder)}`;
    case 'purchase_order.ordered':
      return `Ordered ${numberOf(data.purchaseOrder)}`;
    case 'purchase_order.cancelled':
      return `Cancelled ${numberOf(data.purchaseOrder)}`;
    case 'purchase_order.deleted':
      return `Deleted ${numberOf(data.purchaseOrder)}`;
    case 'purchase_order.received': {
      const units = Number(data.units);
      return `Received ${units} ${units === 1 ? 'unit' : 'units'} against ${numberOf(data.purchaseOrder)}`;
    }
    case 'purchase_order.sent':
      return `Sent ${numberOf(data.purchaseOrder)} to the supplier`;
    case 'count.posted': {
      const lines = Number(data.lines);
      return `Posted the count ${String(data.name)}: ${lines} ${lines === 1 ? 'line' : 'lines'} changed stock`;
    }
    case 'location.created':
      return `Added the location ${pathOf(data.location)}`;
    case 'location.updated':
      return `Edited the location ${pathOf(data.location)}: ${changeText(entry.changes)}`;
    case 'location.deleted':
      return `Deleted the location ${pathOf(data.location)}`;
    case 'webhook.created':
      return `Added ${webhookOf(data.webhook)}`;
    case 'webhook.updated':
      return `Edited ${webhookOf(data.webhook)}: ${changeText(entry.changes)}`;
    case 'webhook.deleted':
      return `Deleted ${webhookOf(data.webhook)}`;
    case 'webhook.secret_rotated':
      return `Replaced the signing secret of ${webhookOf(data.webhook)}`;
    case 'undo':
      return `Undid a change of ${product}`;
  }
}

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** "3 minutes ago", "yesterday": how long ago, from `now`. */
export function timeAgo(iso: string, now = Date.now()): string {
  let amount = (Date.parse(iso) - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return relative.format(Math.round(amount), 'year');
}
