import { sql, type Kysely } from 'kysely';

/**
 * A catalogue's staged import updates (migration 049) by their catalogue: a catalogue's deletion
 * cascades into them, which without it read every catalogue's (a re-import stages up to 50,000
 * rows). Made only if missing: instances starting together may both run this, one after the
 * other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists import_updates_catalogue
    on import_updates (catalogue_id)`.execute(db);
}
