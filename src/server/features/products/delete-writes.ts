import type { Selectable } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { ProductsTable, StockMovementsTable } from '../../infra/db/schema.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { UUID, type WithinWrite, type WriteTarget, writeTarget } from './rows.js';
import { bumpCatalogueVersion } from './write-helpers.js';

/** What a delete removed: the image keys whose files go after the commit, and the products. */
export interface DeletedProducts {
  imageKeys: string[];
  products: { id: string; name: string }[];
  /** One product deleted alone: everything of it, so that the delete can be undone. */
  snapshot?: DeletedSnapshot;
}

/** A deleted product's row and stock history as stored, kept in its activity entry. */
export interface DeletedSnapshot {
  row: Selectable<ProductsTable>;
  movements: Selectable<StockMovementsTable>[];
}

/** Everything of one product, read before it is deleted. */
async function readSnapshot(trx: DB, catalogueId: string, id: string): Promise<DeletedSnapshot> {
  const row = await trx
    .selectFrom('products')
    .selectAll()
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const movements = await trx
    .selectFrom('stock_movements')
    .selectAll()
    .where('catalogue_id', '=', catalogueId)
    .where('product_id', '=', id)
    .orderBy('id')
    .execute();
  return { row, movements };
}

/** Deleting products, one or many, each delete in one transaction with the catalogue's version. */
export class DeleteWrites {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
  ) {}

  /** Deletes the row; returns its image key (or null), or undefined when there was no such row. */
  async delete(
    target: WriteTarget | string,
    id: string,
  ): Promise<{ imageKey: string | null } | undefined> {
    const deleted = await this.deleteMany(target, [id]);
    return deleted && { imageKey: deleted.imageKeys[0] ?? null };
  }

  /**
   * Deletes all of these products of the catalogue, or none when one of them is not the catalogue's (or
   * does not exist): returns the image keys of the rows deleted, or undefined. Their movements go
   * with them (ON DELETE CASCADE). On PostgreSQL the rows are locked in id order first, so two
   * bulk deletes that share products wait for each other instead of deadlocking.
   */
  async deleteMany(
    target: WriteTarget | string,
    ids: string[],
    within?: WithinWrite<DeletedProducts>,
  ): Promise<DeletedProducts | undefined> {
    if (ids.length === 0 || !ids.every((id) => UUID.test(id))) return undefined;
    const { id: catalogueId, confirm } = writeTarget(target);
    return this.db.transaction().execute(async (trx) => {
      await confirm(trx);
      const found = await trx
        .selectFrom('products')
        .select(['id', 'name'])
        .where('catalogue_id', '=', catalogueId)
        .where('id', 'in', ids)
        .orderBy('id')
        // SQLite has no FOR UPDATE: its transactions already run one at a time.
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
        .execute();
      if (found.length !== new Set(ids).size) return undefined;
      const snapshot = ids.length === 1 ? await readSnapshot(trx, catalogueId, ids[0]!) : undefined;
      const rows = await trx
        .deleteFrom('products')
        .where('catalogue_id', '=', catalogueId)
        .where('id', 'in', ids)
        .returning('image_key')
        .execute();
      await bumpCatalogueVersion(trx, catalogueId);
      const deleted = {
        imageKeys: rows.flatMap((row) => (row.image_key ? [row.image_key] : [])),
        products: found,
        ...(snapshot ? { snapshot } : {}),
      };
      await within?.(trx, deleted);
      return deleted;
    });
  }
}
