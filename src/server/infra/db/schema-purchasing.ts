import type { Generated } from 'kysely';

// The purchasing tables (migration 038). schema.ts says how times, booleans and money are stored.

/** Someone a catalogue buys from; `name_key` (the name in lower case) is unique per catalogue. */
export interface SuppliersTable {
  id: string;
  catalogue_id: string;
  name: string;
  name_key: string;
  email: string | null;
  phone: string | null;
  notes: string | null;
  created_at: number;
  updated_at: number;
}

/** A supplier of a product: its code for it, its cost, and whether it is the one preferred. */
export interface ProductSuppliersTable {
  product_id: string;
  supplier_id: string;
  catalogue_id: string;
  supplier_sku: string | null;
  cost_cents: number | null;
  preferred: number;
}

/** The last purchase order number a catalogue gave. */
export interface PurchaseOrderNumbersTable {
  catalogue_id: string;
  last_number: number;
}

type PurchaseOrderStatus = 'draft' | 'ordered' | 'partially_received' | 'received' | 'cancelled';

export interface PurchaseOrdersTable {
  id: string;
  catalogue_id: string;
  number: number;
  supplier_id: string;
  status: PurchaseOrderStatus;
  expected_at: number | null;
  notes: string | null;
  /** When it was e-mailed to the supplier; null until then (it is sent once). */
  sent_at: number | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

/** One product of a purchase order; `is_open` while the order is ordered or partly received. */
export interface PurchaseOrderLinesTable {
  purchase_order_id: string;
  product_id: string;
  catalogue_id: string;
  position: number;
  quantity: number;
  unit_cost_cents: number;
  received: Generated<number>;
  is_open: Generated<number>;
}
