import {
  Migrator,
  sql,
  type Kysely,
  type Migration as KyselyMigration,
  type MigrationProvider,
} from 'kysely';
import * as initial from './migrations/001_initial.js';
import * as productSearch from './migrations/002_product_search.js';
import * as catalogueVersion from './migrations/003_catalogue_version.js';
import * as productImageKey from './migrations/004_product_image_key.js';
import * as productSearchIndex from './migrations/005_product_search_index.js';
import * as codeGuessLimits from './migrations/006_code_guess_limits.js';
import * as mailRequests from './migrations/007_mail_requests.js';
import * as changeNotifications from './migrations/008_change_notifications.js';
import * as productImageSize from './migrations/009_product_image_size.js';
import * as stockMovements from './migrations/010_stock_movements.js';
import * as stockFilterIndexes from './migrations/011_stock_filter_indexes.js';
import * as stockReasonsTagsCost from './migrations/012_stock_reasons_tags_cost.js';
import * as emailChange from './migrations/013_email_change.js';
import * as productCodes from './migrations/014_product_codes.js';
import * as idempotencyAndLiveEvents from './migrations/015_idempotency_and_live_events.js';
import * as catalogues from './migrations/016_catalogues.js';
import * as catalogueInvitations from './migrations/017_catalogue_invitations.js';
import * as reorderPoints from './migrations/018_reorder_points.js';
import * as activityLog from './migrations/019_activity_log.js';
import * as reorderAlertsAndDigest from './migrations/020_reorder_alerts_and_digest.js';
import * as webhooks from './migrations/021_webhooks.js';
import * as reportIndexes from './migrations/022_report_indexes.js';
import * as fairBackgroundWork from './migrations/023_fair_background_work.js';
import * as catalogueScopedKeys from './migrations/024_catalogue_scoped_keys.js';
import * as twoFactorSignIn from './migrations/025_two_factor_sign_in.js';
import * as accountBudgets from './migrations/026_account_budgets.js';
import * as sessionDevices from './migrations/027_session_devices.js';
import * as locations from './migrations/028_locations.js';
import * as deletedActorNames from './migrations/029_deleted_actor_names.js';
import * as userLeases from './migrations/030_user_leases.js';
import * as stockLevels from './migrations/031_stock_levels.js';
import * as catalogueTotals from './migrations/032_catalogue_totals.js';
import * as stockDays from './migrations/033_stock_days.js';
import * as reorderOrderIndexes from './migrations/036_reorder_order_indexes.js';
import * as pendingImports from './migrations/037_pending_imports.js';
import * as purchasing from './migrations/038_purchasing.js';
import * as pendingImportTriggers from './migrations/039_pending_import_triggers.js';
import * as stockCounts from './migrations/040_stock_counts.js';
import * as topMoverWindows from './migrations/041_top_mover_windows.js';
import * as lastMovedAt from './migrations/042_last_moved_at.js';
import * as mailAttachments from './migrations/043_mail_attachments.js';
import * as importInSortIndexes from './migrations/044_import_in_sort_indexes.js';
import * as rowTriggersOnChange from './migrations/045_row_triggers_on_change.js';
import * as movementTriggersByKey from './migrations/046_movement_triggers_by_key.js';
import * as searchIndexMergeSteps from './migrations/047_search_index_merge_steps.js';
import * as topMoverFloor from './migrations/048_top_mover_floor.js';
import * as importUpdates from './migrations/049_import_updates.js';
import * as transitionTablesUnjoined from './migrations/050_transition_tables_unjoined.js';
import * as reorderListIndexes from './migrations/051_reorder_list_indexes.js';
import * as importUpdatesByCatalogue from './migrations/052_import_updates_by_catalogue.js';
import * as stockLevelsByCatalogue from './migrations/054_stock_levels_by_catalogue.js';
import * as reorderDefaultMarked from './migrations/055_reorder_default_marked.js';
import * as imageKeyPictured from './migrations/056_image_key_pictured.js';
import * as topMoverUnmarkOnRaise from './migrations/057_top_mover_unmark_on_raise.js';
import * as searchPendingListSmall from './migrations/059_search_pending_list_small.js';
import * as stockLocationKeyDeferred from './migrations/060_stock_location_key_deferred.js';
import * as locationTotals from './migrations/061_location_totals.js';
import * as webhookFanouts from './migrations/062_webhook_fanouts.js';
import * as queueTenantIndexes from './migrations/063_queue_tenant_indexes.js';
import * as deliveryAgeIndex from './migrations/064_delivery_age_index.js';
import * as locationTotalsPointInApp from './migrations/065_location_totals_point_in_app.js';
import * as locationPlaces from './migrations/066_location_places.js';
import * as dropEmptyStockRows from './migrations/067_drop_empty_stock_rows.js';

export type MigrationDialect = 'sqlite' | 'postgres';

interface Migration {
  name: string;
  up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void>;
}

/** The one ordered list of migrations, applied at start-up on either engine. */
export const migrations: Migration[] = [
  { name: '001_initial', ...initial },
  { name: '002_product_search', ...productSearch },
  { name: '003_catalogue_version', ...catalogueVersion },
  { name: '004_product_image_key', ...productImageKey },
  { name: '005_product_search_index', ...productSearchIndex },
  { name: '006_code_guess_limits', ...codeGuessLimits },
  { name: '007_mail_requests', ...mailRequests },
  { name: '008_change_notifications', ...changeNotifications },
  { name: '009_product_image_size', ...productImageSize },
  { name: '010_stock_movements', ...stockMovements },
  { name: '011_stock_filter_indexes', ...stockFilterIndexes },
  { name: '012_stock_reasons_tags_cost', ...stockReasonsTagsCost },
  { name: '013_email_change', ...emailChange },
  { name: '014_product_codes', ...productCodes },
  { name: '015_idempotency_and_live_events', ...idempotencyAndLiveEvents },
  { name: '016_catalogues', ...catalogues },
  { name: '017_catalogue_invitations', ...catalogueInvitations },
  { name: '018_reorder_points', ...reorderPoints },
  { name: '019_activity_log', ...activityLog },
  { name: '020_reorder_alerts_and_digest', ...reorderAlertsAndDigest },
  { name: '021_webhooks', ...webhooks },
  { name: '022_report_indexes', ...reportIndexes },
  { name: '023_fair_background_work', ...fairBackgroundWork },
  { name: '024_catalogue_scoped_keys', ...catalogueScopedKeys },
  { name: '025_two_factor_sign_in', ...twoFactorSignIn },
  { name: '026_account_budgets', ...accountBudgets },
  { name: '027_session_devices', ...sessionDevices },
  { name: '028_locations', ...locations },
  { name: '029_deleted_actor_names', ...deletedActorNames },
  { name: '030_user_leases', ...userLeases },
  { name: '031_stock_levels', ...stockLevels },
  { name: '032_catalogue_totals', ...catalogueTotals },
  { name: '033_stock_days', ...stockDays },
  { name: '036_reorder_order_indexes', ...reorderOrderIndexes },
  { name: '037_pending_imports', ...pendingImports },
  { name: '038_purchasing', ...purchasing },
  { name: '039_pending_import_triggers', ...pendingImportTriggers },
  { name: '040_stock_counts', ...stockCounts },
  { name: '041_top_mover_windows', ...topMoverWindows },
  { name: '042_last_moved_at', ...lastMovedAt },
  { name: '043_mail_attachments', ...mailAttachments },
  { name: '044_import_in_sort_indexes', ...importInSortIndexes },
  { name: '045_row_triggers_on_change', ...rowTriggersOnChange },
  { name: '046_movement_triggers_by_key', ...movementTriggersByKey },
  { name: '047_search_index_merge_steps', ...searchIndexMergeSteps },
  { name: '048_top_mover_floor', ...topMoverFloor },
  { name: '049_import_updates', ...importUpdates },
  { name: '050_transition_tables_unjoined', ...transitionTablesUnjoined },
  { name: '051_reorder_list_indexes', ...reorderListIndexes },
  { name: '052_import_updates_by_catalogue', ...importUpdatesByCatalogue },
  { name: '054_stock_levels_by_catalogue', ...stockLevelsByCatalogue },
  { name: '055_reorder_default_marked', ...reorderDefaultMarked },
  { name: '056_image_key_pictured', ...imageKeyPictured },
  { name: '057_top_mover_unmark_on_raise', ...topMoverUnmarkOnRaise },
  { name: '059_search_pending_list_small', ...searchPendingListSmall },
  { name: '060_stock_location_key_deferred', ...stockLocationKeyDeferred },
  { name: '061_location_totals', ...locationTotals },
  { name: '062_webhook_fanouts', ...webhookFanouts },
  { name: '063_queue_tenant_indexes', ...queueTenantIndexes },
  { name: '064_delivery_age_index', ...deliveryAgeIndex },
  { name: '065_location_totals_point_in_app', ...locationTotalsPointInApp },
  { name: '066_location_places', ...locationPlaces },
  { name: '067_drop_empty_stock_rows', ...dropEmptyStockRows },
];

/** What the hand-written runner before Kysely's Migrator recorded applied migrations in. */
const LEGACY_TABLE = 'schema_migrations';
/** How long an instance on SQLite waits for another one's migrations to finish. */
const SQLITE_MIGRATION_WAIT_MS = 10 * 60_000;

/**
 * Applies pending migrations with Kysely's Migrator (bookkeeping in `kysely_migration`), safe when
 * several instances start at once on one database: the first migrates, the others wait, then find
 * nothing pending. On PostgreSQL the Migrator holds an advisory lock and applies everything pending
 * in one transaction. Kysely's SQLite adapter neither locks nor uses a transaction (it assumes one
 * process), so on SQLite the whole step runs in one BEGIN IMMEDIATE transaction, which holds the
 * file's write lock. Returns the migrations it applied.
 */
export async function migrate(db: Kysely<unknown>, dialect: MigrationDialect): Promise<string[]> {
  if (await upToDate(db)) return [];
  const run = async (on: Kysely<unknown>) => {
    const applied: string[] = [];
    const migrator = new Migrator({ db: on, provider: migrationProvider(dialect, applied) });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
    return applied;
  };
  return dialect === 'sqlite' ? inSqliteWriteTransaction(db, run) : inPostgresTurn(db, run);
}

/**
 * Whether the database has exactly the migrations above applied, read without a lock: the usual
 * start, which then skips the locked step (a write lock, or an advisory lock and the Migrator's
 * own tables, and SQLite's foreign key check of every row). A migration records itself in the
 * transaction that applies it, so a read sees it applied or not at all; anything else (no table
 * yet, one pending, or one this version does not know) goes through the locked step.
 */
async function upToDate(db: Kysely<unknown>): Promise<boolean> {
  let recorded: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    recorded = rows.map((row) => row.name);
  } catch {
    return false;
  }
  const known = new Set(migrations.map((migration) => migration.name));
  return recorded.length === known.size && recorded.every((name) => known.has(name));
}

/**
 * The list above for the Migrator. A database the old runner migrated has its applied migrations
 * in LEGACY_TABLE: those are recorded as done without running again. The check runs inside the
 * Migrator's locked step, so the carry-over to `kysely_migration` commits with the lock held.
 */
function migrationProvider(dialect: MigrationDialect, applied: string[]): MigrationProvider {
  let legacy: Promise<Set<string>> | undefined;
  return {
    getMigrations: async () =>
      Object.fromEntries(
        migrations.map((migration): [string, KyselyMigration] => [
          migration.name,
          {
            up: async (db) => {
              legacy ??= legacyApplied(db, dialect);
              if ((await legacy).has(migration.name)) return;
              await migration.up(db, dialect);
              applied.push(migration.name);
            },
          },
        ]),
      ),
  };
}

/** The migrations the old runner recorded; none on a database it never saw. */
async function legacyApplied(db: Kysely<unknown>, dialect: MigrationDialect): Promise<Set<string>> {
  const exists =
    dialect === 'postgres'
      ? sql<{ found: number }>`select 1 as found where to_regclass(${LEGACY_TABLE}) is not null`
      : sql<{ found: number }>`select 1 as found from sqlite_master
          where type = 'table' and name = ${LEGACY_TABLE}`;
  if ((await exists.execute(db)).rows.length === 0) return new Set();
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(LEGACY_TABLE)}`.execute(
    db,
  );
  return new Set(rows.map((row) => row.name));
}

/**
 * Runs `work` on one connection inside BEGIN IMMEDIATE: another process that gets there first
 * holds the write lock, and this one waits for it (up to SQLITE_MIGRATION_WAIT_MS rather than the
 * usual busy timeout, since migrations may take a while) before it reads what is applied.
 *
 * Foreign keys are off meanwhile: a migration that changes a table's foreign key rebuilds the
 * table (SQLite cannot alter one), and dropping the old table must not cascade to the rows that
 * refer to it. The pragma cannot change inside a transaction, so it is turned off before BEGIN,
 * and every foreign key is checked before COMMIT: any row that refers to nothing fails the step.
 */
async function inSqliteWriteTransaction<T>(
  db: Kysely<unknown>,
  work: (db: Kysely<unknown>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
    const { rows: keys } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(
      connection,
    );
    await sql`pragma busy_timeout = ${sql.lit(SQLITE_MIGRATION_WAIT_MS)}`.execute(connection);
    await sql`pragma foreign_keys = off`.execute(connection);
    try {
      await sql`begin immediate`.execute(connection);
      try {
        const result = await work(connection);
        await checkForeignKeys(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    } finally {
      await sql`pragma foreign_keys = ${sql.raw(keys[0]?.foreign_keys ? 'on' : 'off')}`.execute(
        connection,
      );
      await sql`pragma busy_timeout = ${sql.lit(rows[0]?.timeout ?? 5_000)}`.execute(connection);
    }
  });
}

/** Fails when any row's foreign key refers to no row (what SQLite checks while keys are on). */
async function checkForeignKeys(connection: Kysely<unknown>) {
  const { rows } = await sql<{ table: string; parent: string }>`pragma foreign_key_check`.execute(
    connection,
  );
  if (rows.length === 0) return;
  const where = [...new Set(rows.map((row) => `${row.table} -> ${row.parent}`))].join(', ');
  throw new Error(`Migration left ${rows.length} rows with a dangling foreign key: ${where}`);
}

/**
 * Runs the Migrator on one PostgreSQL connection that holds a session advisory lock meanwhile.
 * The Migrator takes its own lock only once it has looked the schema over, and looking it over
 * while another instance's migration alters a table can fail ("column … does not exist"); with
 * this lock, an instance looks only once the one before it has finished.
 */
async function inPostgresTurn<T>(db: Kysely<unknown>, run: (on: Kysely<unknown>) => Promise<T>) {
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtextextended('stockroom-migrations', 0))`.execute(
      connection,
    );
    try {
      return await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended('stockroom-migrations', 0))`.execute(
        connection,
      );
    }
  });
}
