import type { ActivityKind, ActivitySource } from '../../../shared/activity.js';
import type { Generated } from 'kysely';
import type { AssignableRole, CatalogueRole } from '../../../shared/catalogue-roles.js';

// The catalogues' tables: members and invitations, and what is kept of their changes (activity,
// idempotent answers, live events). schema.ts says how times, booleans and money are stored.

type InvitationStatus = 'pending' | 'accepted' | 'declined' | 'revoked';

/**
 * An invitation to join a catalogue (migration 017). A replaced one is revoked; every row counts
 * in its catalogue's invitations of the day by `created_at`.
 */
export interface CatalogueInvitationsTable {
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
export interface CataloguesTable {
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
export interface CatalogueMembersTable {
  catalogue_id: string;
  user_id: string;
  role: CatalogueRole;
  created_at: number;
}

/** One thing a member did to a catalogue's products, kept after the products are gone. */
export interface ActivityEntriesTable {
  id: Generated<number>;
  catalogue_id: string;
  actor_id: string | null;
  /** The name of an actor whose account was deleted (migration 029). */
  actor_name: Generated<string | null>;
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
export interface IdempotencyKeysTable {
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
export interface LiveEventsTable {
  id: Generated<number>;
  catalogue_id: string;
  kind: string;
  /** The event's JSON. */
  data: string;
  created_at: number;
}

/** Which products a row of a catalogue's totals counts: all, low, out, or to reorder. */
export type TotalsPart = 'all' | 'low' | 'out' | 'reorder';

/**
 * A catalogue's totals for one part of it, kept by triggers in every write's transaction
 * (migration 032). Money is Σ cents × units in three parts: low + middle·2^16 + high·2^32.
 */
export interface CatalogueTotalsTable {
  catalogue_id: string;
  part: TotalsPart;
  count: number;
  units: number;
  /** How many have a cost. */
  costed: number;
  to_reorder: number;
  value_low: number;
  value_middle: number;
  value_high: number;
  cost_low: number;
  cost_middle: number;
  cost_high: number;
}
