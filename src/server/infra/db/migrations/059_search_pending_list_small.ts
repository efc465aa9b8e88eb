import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * PostgreSQL: the search index's list of entries waiting to be merged holds at most 64 kB (the
 * least PostgreSQL allows), not the 4 MB default. Every write of a product's key, and every
 * change of stock (its row is written anew, its stock being indexed), adds its entries to that
 * list, whatever its catalogue; every search reads the whole list and checks each entry, as the
 * list is in no order. Beside another tenant's writes, a search read up to 4 MB more (about 1.7 ms
 * of CPU a statement); at 64 kB the writer that fills the list merges it, in steps of about 80
 * rows. The index's tree needs no change: a search reads only a few pages of it whatever the other
 * catalogues hold. What waits now is merged here, so that searches are bounded from the start.
 * Both statements may run again: instances starting together run this one after the other.
 * SQLite's FTS5 index keeps no such list: nothing to do.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter index products_search_trgm set (gin_pending_list_limit = 64)`.execute(db);
  await sql`select gin_clean_pending_list('products_search_trgm'::regclass)`.execute(db);
}
