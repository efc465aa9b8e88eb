import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * A product's optional codes: `sku` as typed and `barcode` as it reads, each beside the key that
 * makes two codes the same (`sku_key`: the SKU folded to lower case, computed by the app so that
 * both engines compare the same bytes; `barcode_key`: a GTIN's 14-digit form, so a UPC-A and its
 * EAN-13 are one code). A partial unique index per key keeps each code unique within the owner's
 * catalogue, which holds when two writes race, and finds a scanned code in one index probe.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['sku', 'sku_key', 'barcode', 'barcode_key']) {
    await db.schema.alterTable('products').addColumn(column, 'text').execute();
  }
  for (const key of ['sku_key', 'barcode_key']) {
    await db.schema
      .createIndex(`products_owner_${key}`)
      .on('products')
      .columns(['owner_id', key])
      .unique()
      .where(sql<SqlBool>`${sql.ref(key)} is not null`)
      .execute();
  }
}
