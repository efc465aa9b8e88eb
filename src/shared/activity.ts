/**
 * The activity log's vocabulary, shared by the server and the screens: what kinds of change it
 * records, where a change was made, and which can be undone, for how long.
 */
export const ACTIVITY_KINDS = [
  'product.created',
  'product.updated',
  'product.deleted',
  'products.deleted',
  'import.done',
  'stock.moved',
  'stock.transferred',
  'stock.imported',
  'member.added',
  'member.role_changed',
  'member.removed',
  'catalogue.renamed',
  'catalogue.reorder_point_changed',
  'supplier.created',
  'supplier.updated',
  'supplier.deleted',
  'product.suppliers_changed',
  'purchase_order.created',
  'purchase_order.updated',
  'purchase_order.ordered',
  'purchase_order.cancelled',
  'purchase_order.deleted',
  'purchase_order.received',
  'purchase_order.sent',
  'count.posted',
  'location.created',
  'location.updated',
  'location.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'undo',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/**
 * The kinds that tell of the catalogue's webhook endpoints themselves: logged, but no webhook
 * event (an endpoint is the receiver's own setting, and one just deleted or given a new secret
 * could not hear of it anyway).
 */
export type WebhookSettingKind = Extract<ActivityKind, `webhook.${string}`>;
export const isWebhookSettingKind = (kind: string): kind is WebhookSettingKind =>
  kind.startsWith('webhook.');

/**
 * Where a change was made: the `Stockroom-Source` header's values (the app's screens, the Activity
 * screen's undo among them), an import, or the API.
 */
export const ACTIVITY_SOURCES = ['scan', 'stepper', 'form', 'activity', 'import', 'api'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];

/** What a client may say in the header (an import and the API are known without it). */
export const SOURCE_HEADER_VALUES = ['scan', 'stepper', 'form', 'activity'] as const;
export const SOURCE_HEADER = 'Stockroom-Source';

/** How long a change can be undone. */
export const UNDO_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** The kinds an undo reverses, and the action a member needs to have made the change. */
export const UNDOABLE_KINDS = {
  'stock.moved': 'adjustStock',
  'stock.transferred': 'adjustStock',
  'product.updated': 'editProducts',
  'product.deleted': 'editProducts',
  'count.posted': 'manageCounts',
} as const satisfies Partial<Record<ActivityKind, string>>;

export const ACTIVITY_PAGE_MAX = 100;
export const ACTIVITY_PAGE_DEFAULT = 50;

/** The answers of the activity routes, word for word. */
export const ACTIVITY_MESSAGES = {
  badSource: `Stockroom-Source must be one of ${SOURCE_HEADER_VALUES.join(', ')}`,
  entryNotFound: 'Activity entry not found',
  belowZero: 'Cannot undo: stock would go below 0',
  movedSince: 'Cannot undo: the stock moved has moved on since',
  countScopeBusy: 'Cannot undo: another count of the same scope is open',
  countOverlaps: (name: string) =>
    `Cannot undo: the count "${name}" is open over a location above or below this one's: post or cancel it first`,
  tooOld: 'Too old to undo: changes can be undone for 7 days',
  alreadyUndone: 'Already undone',
  cannotUndo: 'This change cannot be undone',
  productGone: 'Cannot undo: the product was deleted since',
  changedSince: (fields: readonly string[]) => `Cannot undo: ${fields.join(', ')} changed since`,
  codeTaken: (code: 'SKU' | 'barcode', value: string) =>
    `Cannot undo: the ${code} ${value} is now used by another product`,
  codeIsLocation: (code: 'SKU' | 'barcode', value: string) =>
    `Cannot undo: the ${code} ${value} is now used by a location`,
  kindInvalid: `kind must be one of ${ACTIVITY_KINDS.join(', ')}`,
  limitInvalid: `limit must be a whole number from 1 to ${ACTIVITY_PAGE_MAX}`,
  dateInvalid: 'must be an ISO date or date and time',
  idInvalid: 'must be an id',
} as const;
