import type { ActivityKind, ActivitySource } from '../../../shared/activity.js';
import type { Generated } from 'kysely';
import type { AssignableRole, CatalogueRole } from '../../../shared/catalogue-roles.js';
import type { MovementSource, StockReason } from '../../../shared/constants.js';

/**
 * Table types. Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite): one
 * representation that compares and sorts the same on both engines. Booleans are 0/1 integers for
 * the same reason. Money is integer cents.
 */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  confirmed: number;
  /** An address the owner asked to move to, until its code confirms it (migration 013). */
  pending_email: Generated<string | null>;
  /** Whether the user gets the daily low-stock digest, 0/1 (migration 020). */
  low_stock_digest: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** `email`: the code mailed to a new address, which confirms the change to it. */
export type CodePurpose = 'confirm' | 'reset' | 'email';
/** What an address's mail budget counts apart: each code purpose, and invitations to catalogues. */
export type MailBudget = CodePurpose | 'invitation';

interface CodesTable {
  id: string;
  user_id: string;
  purpose: CodePurpose;
  code_hash: string;
  expires_at: number;
  failed_attempts: number;
  created_at: number;
}

interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
}

export interface ProductsTable {
  id: string;
  /** The catalogue the product is in (migration 016; a personal catalogue's id is its user's). */
  catalogue_id: string;
  name: string;
  /** The name folded for sorting (lower case, no accents). */
  name_key: string;
  description: string;
  /** Name and description folded for search, see migration 002. */
  search_key: string;
  price_cents: number;
  stock: number;
  active: number;
  image_key: string | null;
  /** The stored image's size in pixels (migration 009); null without one or from before. */
  image_width: number | null;
  image_height: number | null;
  /** The tags as written, a JSON array (migration 012); product_tags holds them folded. */
  tags: string;
  /** What a unit cost, in cents; null when unset. */
  cost_cents: number | null;
  created_at: number;
  updated_at: number;
  /** Optional codes (migration 014): as shown, and the key that is unique per owner. */
  sku: string | null;
  sku_key: string | null;
  barcode: string | null;
  barcode_key: string | null;
  /** Who created and who last edited the product (migration 016); null from before, or gone. */
  created_by: Generated<string | null>;
  updated_by: Generated<string | null>;
  /** Its own reorder point (migration 018); null: the catalogue's. */
  reorder_point: Generated<number | null>;
  /**
   * When it last crossed to or below its reorder point; null while above it (migration 020). Set
   * and cleared by every write of a stock or a point (features/products/reorder.ts).
   */
  reorder_crossed_at: Generated<number | null>;
}

/** One folded tag of a product: what the tag filter reads (migration 012). */
interface ProductTagsTable {
  product_id: string;
  catalogue_id: string;
  tag_key: string;
}

/**
 * One change of a product's stock (migration 010), written in the transaction of the change:
 * creation, an edit that changed the stock, an adjustment, an import. Goes with its product.
 */
export interface StockMovementsTable {
  /** Increasing: a product's movements in the order they happened. */
  id: Generated<number>;
  product_id: string;
  catalogue_id: string;
  /** Who made the change (migration 016); null from before, or when the account is gone. */
  actor_id: Generated<string | null>;
  created_at: number;
  old_stock: number;
  new_stock: number;
  delta: number;
  source: MovementSource;
  note: string | null;
  /** Why, as given with an adjustment or a count (migration 012); null when none was. */
  reason: StockReason | null;
}

/**
 * A mail rendered when it is queued ('notice'), or a request the worker turns into a mail at send
 * time (migration 007): a code of a purpose, or for 'signup' a code or "you already have an account".
 */
type MailKind = 'notice' | MailRequestKind;
export type MailRequestKind = 'signup' | 'confirm-code' | 'reset-code' | 'email-code';

/** Why a row was closed: sent, or why nothing (more) was sent. */
export type MailOutcome =
  'sent' | 'no-account' | 'not-applicable' | 'over-budget' | 'expired' | 'superseded' | 'failed';

export interface OutboxTable {
  id: string;
  recipient: string;
  kind: MailKind;
  /** The budget a request (or a counted invitation) counts in; null for other notices. */
  purpose: MailBudget | null;
  /** Empty for requests (rendered at send time) and for every sent row. */
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
  next_attempt_at: number;
  locked_until: number | null;
  /** When the worker counted the request in its address's budget; null until then. */
  counted_at: number | null;
  /** The code issued for this request (its id, never the code), re-keyed when a send is retried. */
  code_id: string | null;
  /** The account a request is for when its recipient is not the account's address (migration 013). */
  user_id: Generated<string | null>;
  sent_at: number | null;
  closed_at: number | null;
  outcome: MailOutcome | null;
  last_error: string | null;
  created_at: number;
}

/** Failed code attempts that carried no e-mail: the global bare-code budget counts these. */
interface CodeFailuresTable {
  id: Generated<number>;
  purpose: CodePurpose;
  at: number;
  /** How many live codes of the purpose the attempt was tried against (at least 1; migration 006). */
  weight: Generated<number>;
}

/** Wrong tries at an account's codes, with or without the e-mail: its 24-hour budget counts these. */
interface AccountCodeFailuresTable {
  id: Generated<number>;
  user_id: string;
  purpose: CodePurpose;
  at: number;
}

/** One row per code budget, written first by each check of it so that checks run one at a time. */
interface CodeBudgetLocksTable {
  scope: string;
}

export interface Database {
  users: UsersTable;
  codes: CodesTable;
  sessions: SessionsTable;
  products: ProductsTable;
  product_tags: ProductTagsTable;
  stock_movements: StockMovementsTable;
  outbox: OutboxTable;
  code_failures: CodeFailuresTable;
  account_code_failures: AccountCodeFailuresTable;
  code_budget_locks: CodeBudgetLocksTable;
  idempotency_keys: IdempotencyKeysTable;
  live_events: LiveEventsTable;
  catalogues: CataloguesTable;
  catalogue_members: CatalogueMembersTable;
  activity_entries: ActivityEntriesTable;
  catalogue_invitations: CatalogueInvitationsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  low_stock_digests: LowStockDigestsTable;
}

/**
 * A low-stock digest sent (migration 020): one per user and UTC day, claimed in the transaction
 * that queues its mail.
 */
interface LowStockDigestsTable {
  user_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  sent_at: number;
  /** How many products it listed. */
  products: number;
}

type InvitationStatus = 'pending' | 'accepted' | 'declined' | 'revoked';

/**
 * An invitation to join a catalogue (migration 017). A replaced one is revoked; every row counts
 * in its catalogue's invitations of the day by `created_at`.
 */
interface CatalogueInvitationsTable {
  id: string;
  catalogue_id: string;
  email: string;
  role: AssignableRole;
  invited_by: string;
  status: InvitationStatus;
  created_at: number;
  expires_at: number;
  answered_at: number | null;
}

/**
 * A catalogue of products (migration 016). A user's personal catalogue has the user's id and
 * `personal` 1; it cannot be deleted or handed over.
 */
interface CataloguesTable {
  id: string;
  name: string;
  personal: number;
  /** Bumped with every write to the catalogue's products: the key of cached reads. */
  version: Generated<number>;
  /** The reorder point of its products that set none (migration 018). */
  reorder_point: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** Who may use a catalogue, and in which role; exactly one owner per catalogue. */
interface CatalogueMembersTable {
  catalogue_id: string;
  user_id: string;
  role: CatalogueRole;
  created_at: number;
}

/** One thing a member did to a catalogue's products, kept after the products are gone. */
interface ActivityEntriesTable {
  id: Generated<number>;
  catalogue_id: string;
  actor_id: string | null;
  kind: ActivityKind;
  /** No foreign key: the entry outlives the product. */
  product_id: string | null;
  product_name: string | null;
  /** What changed, as JSON. */
  data: string;
  created_at: number;
  /** Where the change was made (migration 019). */
  source: Generated<ActivitySource>;
  /** On an undo entry, the entry it undid; unique (migration 019). */
  undoes: number | null;
  /** A deleted product's row and history as JSON, what an undo puts back (migration 019). */
  snapshot: string | null;
  /** A deleted product's picture, kept while the delete can be undone (migration 019). */
  image_key: string | null;
}

/** The first answer to a write that carried an Idempotency-Key (migration 015). */
interface IdempotencyKeysTable {
  owner_id: string;
  key: string;
  /** What the request was: method, route, product and body, hashed. */
  fingerprint: string;
  status: number;
  /** The answer's JSON. */
  body: string;
  created_at: number;
}

/** A committed change of one catalogue, as `GET /api/events` streams it (migration 015). */
interface LiveEventsTable {
  id: Generated<number>;
  catalogue_id: string;
  kind: string;
  /** The event's JSON. */
  data: string;
  created_at: number;
}

/** An endpoint a catalogue's admins registered (migration 021). */
export interface WebhooksTable {
  id: string;
  catalogue_id: string;
  url: string;
  /** The subscribed event types, a JSON array. */
  events: string;
  secret: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_succeeded: number | null;
  last_error: string | null;
  last_success_at: number | null;
  /** When the worker switched it off after 3 days of failures. */
  disabled_at: number | null;
}

type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint, retried with back-off until a 2xx or 3 days (migration 021). */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  catalogue_id: string;
  event_type: string;
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  locked_until: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}
