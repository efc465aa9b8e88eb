import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { DB } from '../../infra/db/handle.js';
import type { ImageStorage } from '../../infra/images/storage.js';
import { csvExport, csvStream } from '../catalogue-ops/index.js';
import type { ProductsContext } from '../products/index.js';
import { listDeviceSessions } from './device-sessions.js';
import { findUserById } from './users.js';
import { ofVisibleProduct, visibleProduct } from '../../infra/db/visible-products.js';

/** Rows read at a time for the movements and the images: one page in memory, whatever the size. */
const PAGE_ROWS = 500;

const iso = (ms: number | bigint | null) =>
  ms === null ? null : new Date(Number(ms)).toISOString();

export interface ExportDeps {
  db: DB;
  images: ImageStorage;
  products: ProductsContext;
}

/** What the account is: its profile, its sign-in methods (no secrets), sessions and catalogues. */
async function accountJson(deps: ExportDeps, userId: string, sessionId: string, now: number) {
  const { db } = deps;
  const user = await findUserById(db, userId);
  if (!user) return undefined;
  const [totp, passkeys, sessions, catalogues] = await Promise.all([
    db
      .selectFrom('user_totp')
      .select('confirmed_at')
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    db
      .selectFrom('passkeys')
      .select(['name', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .execute(),
    listDeviceSessions(db, userId, sessionId, now),
    db
      .selectFrom('catalogue_members as m')
      .innerJoin('catalogues as c', 'c.id', 'm.catalogue_id')
      .select(['c.id', 'c.name', 'm.role', 'm.created_at'])
      .where('m.user_id', '=', userId)
      .orderBy('c.name')
      .execute(),
  ]);
  return {
    exportedAt: iso(now),
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      createdAt: iso(user.created_at),
      lowStockDigest: user.low_stock_digest === 1,
    },
    twoFactor: { totp: totp?.confirmed_at != null },
    passkeys: passkeys.map((key) => ({
      name: key.name,
      createdAt: iso(key.created_at),
      lastUsedAt: iso(key.last_used_at),
    })),
    sessions,
    catalogues: catalogues.map((catalogue) => ({
      id: catalogue.id,
      name: catalogue.name,
      role: catalogue.role,
      personal: catalogue.id === userId,
      joinedAt: iso(catalogue.created_at),
    })),
  };
}

/** What a movement's CSV row holds after its product and time: columns named as in the table. */
const MOVEMENT_FIGURES = [
  'old_stock',
  'new_stock',
  'delta',
  'source',
  'reason',
  'note',
  'location_id',
  'purchase_order_id',
  'count_id',
] as const;

/** A catalogue's stock movements, oldest first, a page at a time. */
async function* movementPages(db: DB, catalogueId: string) {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('stock_movements')
      .select(['id', 'product_id', 'created_at', ...MOVEMENT_FIGURES])
      .where('catalogue_id', '=', catalogueId)
      .where('id', '>', after)
      .where(ofVisibleProduct('product_id'))
      .orderBy('id')
      .limit(PAGE_ROWS)
      .execute();
    if (rows.length === 0) return;
    after = Number(rows.at(-1)!.id);
    yield rows.map((row) => [
      row.product_id,
      iso(row.created_at)!,
      row.old_stock,
      row.new_stock,
      row.delta,
      row.source,
      row.reason ?? '',
      row.note ?? '',
      row.location_id ?? '',
      row.purchase_order_id ?? '',
      row.count_id ?? '',
    ]);
  }
}

const MOVEMENT_COLUMNS = ['product_id', 'at', ...MOVEMENT_FIGURES];

/** A catalogue's products that have a picture, by id, a page at a time. */
async function* picturedProducts(db: DB, catalogueId: string) {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('products')
      .select(['id', 'image_key'])
      .where('catalogue_id', '=', catalogueId)
      .where('image_key', 'is not', null)
      .where('id', '>', after)
      .where(visibleProduct())
      .orderBy('id')
      .limit(PAGE_ROWS)
      .execute();
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    yield* rows;
  }
}

/**
 * Everything of an account as one ZIP, written as it is read: `account.json` (profile, sign-in
 * methods without their secrets, sessions, memberships), then for each catalogue it belongs to
 * `catalogues/<id>/products.csv` (the columns of the CSV export, which imports back),
 * `movements.csv` and `images/<product id>.webp`. Entries are added as their rows are read and
 * each file is opened only when the ZIP reaches it, so memory stays flat however large the
 * catalogues. Undefined when the account is gone.
 */
export async function accountExport(
  deps: ExportDeps,
  userId: string,
  sessionId: string,
  now: number,
  onError: (error: unknown) => void,
): Promise<Readable | undefined> {
  const account = await accountJson(deps, userId, sessionId, now);
  if (!account) return undefined;
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as unknown as Readable;
  const mtime = new Date(now);
  zip.addBuffer(Buffer.from(JSON.stringify(account, null, 2)), 'account.json', { mtime });

  const { db, images, products } = deps;
  async function addCatalogues() {
    for (const { id } of account!.catalogues) {
      const folder = `catalogues/${id}`;
      zip.addReadStreamLazy(`${folder}/products.csv`, { mtime }, (done) =>
        done(
          null,
          csvExport(
            products.repository.exportPages(id, { sort: 'oldest' }),
            products.present.ownImageUrl,
            onError,
          ),
        ),
      );
      zip.addReadStreamLazy(`${folder}/movements.csv`, { mtime }, (done) =>
        done(null, csvStream(MOVEMENT_COLUMNS, movementPages(db, id), onError)),
      );
      for await (const product of picturedProducts(db, id)) {
        // The products feature stores a picture as `<key>.webp` (and a thumbnail beside it).
        const name = `${product.image_key}.webp`;
        zip.addReadStreamLazy(
          `${folder}/images/${product.id}.webp`,
          { mtime, compress: false },
          (done) => {
            images.open(name).then(
              (file) => done(null, file?.stream ?? Readable.from([])),
              (error: unknown) => done(error as Error, Readable.from([])),
            );
          },
        );
      }
    }
  }
  addCatalogues().then(
    () => zip.end(),
    (error: unknown) => {
      onError(error);
      output.destroy(error as Error);
    },
  );
  return output;
}
