import type {
  AccountCodeFailuresTable,
  CodeBudgetLocksTable,
  CodeFailuresTable,
  CodesTable,
  PasskeysTable,
  RecoveryCodesTable,
  SessionsTable,
  SignInChallengesTable,
  UserLeasesTable,
  UsersTable,
  UserTotpTable,
} from './schema-accounts.js';
import type {
  ActivityEntriesTable,
  CatalogueInvitationsTable,
  CatalogueMembersTable,
  CataloguesTable,
  CatalogueTotalsTable,
  IdempotencyKeysTable,
  LiveEventsTable,
} from './schema-catalogues.js';
import type { CountLinesTable, CountsTable } from './schema-counts.js';
import type {
  LocationHoldingsTable,
  LocationPathsTable,
  LocationsTable,
  LocationTotalsTable,
  StockLevelsTable,
} from './schema-locations.js';
import type { LowStockDigestsTable, OutboxAttachmentsTable, OutboxTable } from './schema-mail.js';
import type {
  CatalogueDaysTable,
  ImportAppliesTable,
  ImportUpdatesTable,
  PendingImportsTable,
  ProductDaysTable,
  ProductTagsTable,
  ProductsTable,
  ProductWindowsTable,
  StockMovementsTable,
  WindowStartsTable,
} from './schema-products.js';
import type {
  ProductSuppliersTable,
  PurchaseOrderLinesTable,
  PurchaseOrderNumbersTable,
  PurchaseOrdersTable,
  SuppliersTable,
} from './schema-purchasing.js';
import type {
  WebhookDeliveriesTable,
  WebhookFanoutsTable,
  WebhooksTable,
} from './schema-webhooks.js';

// The tables are grouped by area in the schema-*.ts files beside this one; this one lists the
// database.

/**
 * Table types. Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite): one
 * representation that compares and sorts the same on both engines. Booleans are 0/1 integers for
 * the same reason. Money is integer cents.
 */
export interface Database {
  users: UsersTable;
  codes: CodesTable;
  sessions: SessionsTable;
  products: ProductsTable;
  product_tags: ProductTagsTable;
  stock_movements: StockMovementsTable;
  pending_imports: PendingImportsTable;
  import_updates: ImportUpdatesTable;
  import_applies: ImportAppliesTable;
  product_days: ProductDaysTable;
  catalogue_days: CatalogueDaysTable;
  product_windows: ProductWindowsTable;
  window_starts: WindowStartsTable;
  outbox: OutboxTable;
  outbox_attachments: OutboxAttachmentsTable;
  code_failures: CodeFailuresTable;
  account_code_failures: AccountCodeFailuresTable;
  code_budget_locks: CodeBudgetLocksTable;
  idempotency_keys: IdempotencyKeysTable;
  live_events: LiveEventsTable;
  catalogues: CataloguesTable;
  catalogue_members: CatalogueMembersTable;
  catalogue_totals: CatalogueTotalsTable;
  activity_entries: ActivityEntriesTable;
  catalogue_invitations: CatalogueInvitationsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_fanouts: WebhookFanoutsTable;
  low_stock_digests: LowStockDigestsTable;
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  sign_in_challenges: SignInChallengesTable;
  locations: LocationsTable;
  location_paths: LocationPathsTable;
  location_holdings: LocationHoldingsTable;
  location_totals: LocationTotalsTable;
  stock_levels: StockLevelsTable;
  user_leases: UserLeasesTable;
  suppliers: SuppliersTable;
  product_suppliers: ProductSuppliersTable;
  purchase_order_numbers: PurchaseOrderNumbersTable;
  purchase_orders: PurchaseOrdersTable;
  purchase_order_lines: PurchaseOrderLinesTable;
  counts: CountsTable;
  count_lines: CountLinesTable;
}
