import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import {
  SUP,
  SUPPLIERS_MAX,
  type ProductSuppliersBody,
  type Supplier,
  type SupplierCreate,
  type SupplierUpdate,
} from '../../../shared/schemas/purchasing/suppliers.js';
import type { ProductSupplier } from '../../../shared/schemas/products.js';
import { centsToPrice } from '../../../shared/schemas/money.js';
import { uniqueViolation } from '../../infra/db/errors.js';
import type { DB } from '../../infra/db/handle.js';
import type { SuppliersTable } from '../../infra/db/schema-purchasing.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { CatalogueWrite } from '../writes/index.js';
import { visibleProduct } from '../../infra/db/visible-products.js';

const COLUMNS = ['id', 'name', 'email', 'phone', 'notes'] as const;
type SupplierRow = Pick<Selectable<SuppliersTable>, (typeof COLUMNS)[number]>;
const conflict = (message: string) => new HttpError(409, message);
/** Names are unique in a catalogue without regard to case. */
const nameKey = (name: string) => name.toLowerCase();

const present = (row: SupplierRow): Supplier => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  notes: row.notes,
});

/** The catalogue's suppliers by name: one range of the (catalogue, name) index. */
export async function listSuppliers(db: DB, catalogueId: string): Promise<Supplier[]> {
  const rows = await db
    .selectFrom('suppliers')
    .select(COLUMNS)
    .where('catalogue_id', '=', catalogueId)
    .orderBy('name_key')
    .execute();
  return rows.map(present);
}

export async function findSupplier(
  db: DB,
  catalogueId: string,
  supplierId: string,
): Promise<Supplier> {
  const row = await db
    .selectFrom('suppliers')
    .select(COLUMNS)
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', supplierId.toLowerCase())
    .executeTakeFirst();
  if (!row) throw notFound(SUP.notFound);
  return present(row);
}

/** Checks the name is free among the catalogue's other suppliers (the unique index backs it). */
async function checkName(trx: DB, catalogueId: string, name: string, except?: string) {
  const taken = await trx
    .selectFrom('suppliers')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .where('name_key', '=', nameKey(name))
    .$if(except !== undefined, (query) => query.where('id', '<>', except!))
    .executeTakeFirst();
  if (taken) throw conflict(SUP.nameTaken);
}

/** Runs a write whose insert or update a racing write of the same name may beat: 409, not 500. */
async function uniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error) !== undefined) throw conflict(SUP.nameTaken);
    throw error;
  }
}

export async function createSupplier(w: CatalogueWrite, body: SupplierCreate): Promise<Supplier> {
  const { trx, catalogueId, now } = w;
  const { count } = await trx
    .selectFrom('suppliers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('catalogue_id', '=', catalogueId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= SUPPLIERS_MAX) throw conflict(SUP.tooMany);
  await checkName(trx, catalogueId, body.name);
  const id = randomUUID();
  await uniquely(() =>
    trx
      .insertInto('suppliers')
      .values({
        id,
        catalogue_id: catalogueId,
        name: body.name,
        name_key: nameKey(body.name),
        email: body.email,
        phone: body.phone,
        notes: body.notes,
        created_at: now,
        updated_at: now,
      })
      .execute(),
  );
  return { id, name: body.name, email: body.email, phone: body.phone, notes: body.notes };
}

export async function updateSupplier(
  w: CatalogueWrite,
  supplierId: string,
  body: SupplierUpdate,
): Promise<Supplier> {
  const { trx, catalogueId, now } = w;
  const current = await findSupplier(trx, catalogueId, supplierId);
  if (body.name !== undefined) await checkName(trx, catalogueId, body.name, current.id);
  const next: Supplier = {
    ...current,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.phone !== undefined ? { phone: body.phone } : {}),
    ...(body.notes !== undefined ? { notes: body.notes } : {}),
  };
  await uniquely(() =>
    trx
      .updateTable('suppliers')
      .set({
        name: next.name,
        name_key: nameKey(next.name),
        email: next.email,
        phone: next.phone,
        notes: next.notes,
        updated_at: now,
      })
      .where('catalogue_id', '=', catalogueId)
      .where('id', '=', current.id)
      .execute(),
  );
  return next;
}

/** Deletes a supplier that no purchase order names; its products forget it. */
export async function deleteSupplier(w: CatalogueWrite, supplierId: string): Promise<Supplier> {
  const { trx, catalogueId } = w;
  const current = await findSupplier(trx, catalogueId, supplierId);
  const ordered = await trx
    .selectFrom('purchase_orders')
    .select('id')
    .where('supplier_id', '=', current.id)
    .executeTakeFirst();
  if (ordered) throw conflict(SUP.hasOrders);
  await trx.deleteFrom('product_suppliers').where('supplier_id', '=', current.id).execute();
  await trx
    .deleteFrom('suppliers')
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', current.id)
    .execute();
  return current;
}

/** A product's suppliers: the preferred one first, then by name. */
export async function suppliersOfProduct(
  db: DB,
  catalogueId: string,
  productId: string,
): Promise<ProductSupplier[]> {
  const rows = await db
    .selectFrom('product_suppliers as ps')
    .innerJoin('suppliers as s', 's.id', 'ps.supplier_id')
    .select(['ps.supplier_id', 's.name', 'ps.supplier_sku', 'ps.cost_cents', 'ps.preferred'])
    .where('ps.catalogue_id', '=', catalogueId)
    .where('ps.product_id', '=', productId)
    .orderBy('ps.preferred', 'desc')
    .orderBy('s.name_key')
    .execute();
  return rows.map((row) => ({
    supplierId: row.supplier_id,
    name: row.name,
    supplierSku: row.supplier_sku,
    cost: row.cost_cents === null ? null : centsToPrice(Number(row.cost_cents)),
    preferred: row.preferred === 1,
  }));
}

/**
 * Replaces a product's suppliers with the list given. The product's row is locked first
 * (PostgreSQL), so two lists saved at once are applied one after the other: never two preferred.
 * Returns the product's name, or undefined when it is not the catalogue's.
 */
export async function setProductSuppliers(
  w: CatalogueWrite,
  productId: string,
  body: ProductSuppliersBody,
): Promise<{ id: string; name: string } | undefined> {
  const { trx, catalogueId } = w;
  const product = await trx
    .selectFrom('products')
    .select(['id', 'name'])
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', productId.toLowerCase())
    .where(visibleProduct())
    .$if(w.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  if (!product) return undefined;
  const ids = body.suppliers.map((line) => line.supplierId);
  if (ids.length > 0) {
    const known = await trx
      .selectFrom('suppliers')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', ids)
      .execute();
    if (known.length !== ids.length) throw notFound(SUP.notFound);
  }
  await trx.deleteFrom('product_suppliers').where('product_id', '=', product.id).execute();
  if (body.suppliers.length > 0) {
    await trx
      .insertInto('product_suppliers')
      .values(
        body.suppliers.map((line) => ({
          product_id: product.id,
          supplier_id: line.supplierId,
          catalogue_id: catalogueId,
          supplier_sku: line.supplierSku,
          cost_cents: line.cost,
          preferred: line.preferred ? 1 : 0,
        })),
      )
      .execute();
  }
  return product;
}
