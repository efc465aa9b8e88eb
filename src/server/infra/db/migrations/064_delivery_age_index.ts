import { sql, type Kysely } from 'kysely';

/**
 * Webhook deliveries by age, for the hourly prune of the finished ones past 30 days: without it
 * each run read every delivery kept (a million after one bulk write) to find them. May run again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists webhook_deliveries_created
            on webhook_deliveries (created_at)`.execute(db);
}
