import type { ProductCreate, ProductUpdate } from '../../../shared/schemas/products.js';
import { processImage } from '../../infra/images/pipeline.js';
import type { ProductImages } from './product-images.js';
import type { Clock } from '../../lib/clock.js';
import type { ProductRepository } from './repository.js';
import type {
  Adjustment,
  ProductRow,
  StockChange,
  StoredImage,
  WithinWrite,
  WriteTarget,
} from './rows.js';
import type { DeletedProducts } from './delete-writes.js';
import type { UpdatedProduct } from './writes.js';

/**
 * Writes that involve image files. Files are written before the row that refers to them and
 * removed again if that write fails; files a committed change no longer refers to are removed
 * after the commit. A failed request therefore leaves neither a row nor a file behind.
 */
export class ProductService {
  constructor(
    private readonly products: ProductRepository,
    private readonly images: ProductImages,
    private readonly clock: Clock,
  ) {}

  /** Decodes and stores an upload; returns its key and size, or undefined when there is none. */
  private async storeImage(upload: Buffer | undefined): Promise<StoredImage | undefined> {
    if (!upload) return undefined;
    const processed = await processImage(upload);
    const key = await this.images.save(processed);
    return { key, width: processed.width, height: processed.height };
  }

  /** Runs a database write; if it throws, the files just stored for it are removed. */
  private async withCleanup<T>(key: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (key) await this.images.remove(key);
      throw error;
    }
  }

  async create(
    target: WriteTarget | string,
    input: ProductCreate,
    upload?: Buffer,
    within?: WithinWrite<ProductRow>,
  ): Promise<ProductRow> {
    const image = await this.storeImage(upload);
    return this.withCleanup(image?.key, () =>
      this.products.insert(
        target,
        {
          name: input.name,
          description: input.description,
          priceCents: input.price,
          stock: input.stock,
          image: image ?? null,
          sku: input.sku,
          barcode: input.barcode,
          tags: input.tags,
          costCents: input.cost,
          reorderPoint: input.reorderPoint,
        },
        this.clock.now(),
        within,
      ),
    );
  }

  async update(
    target: WriteTarget | string,
    id: string,
    input: ProductUpdate,
    upload?: Buffer,
    within?: WithinWrite<UpdatedProduct>,
  ): Promise<ProductRow | undefined> {
    const image = await this.storeImage(upload);
    const key = image?.key;
    const changes = {
      name: input.name,
      description: input.description,
      priceCents: input.price,
      stock: input.stock,
      image,
      sku: input.sku,
      barcode: input.barcode,
      tags: input.tags,
      costCents: input.cost,
      reorderPoint: input.reorderPoint,
    };
    const result = await this.withCleanup(key, async () => {
      const updated = await this.products.update(target, id, changes, this.clock.now(), within);
      // Deleted meanwhile: the new files have nothing to belong to.
      if (!updated && key) await this.images.remove(key);
      return updated;
    });
    // A replaced picture's files stay: the edit can be undone for 7 days, and its activity entry
    // names the key, which keeps the files from the orphan sweep until then.
    return result?.row;
  }

  /**
   * Deletes one product. Its image files stay: the delete can be undone for 7 days, and its
   * activity entry names the key, which keeps the files from the orphan sweep until then.
   */
  async delete(
    target: WriteTarget | string,
    id: string,
    within?: WithinWrite<DeletedProducts>,
  ): Promise<boolean> {
    return (await this.products.deleteMany(target, [id], within)) !== undefined;
  }

  /** Deletes all of these products or none (false); their files go once the delete committed. */
  async deleteMany(
    target: WriteTarget | string,
    ids: string[],
    within?: WithinWrite<DeletedProducts>,
  ): Promise<boolean> {
    const deleted = await this.products.deleteMany(target, ids, within);
    await this.removeImages(deleted?.imageKeys ?? []);
    return deleted !== undefined;
  }

  /** Removes the files of images no product refers to any more (after the commit that did it). */
  async removeImages(keys: Iterable<string>): Promise<void> {
    for (const key of keys) await this.images.remove(key);
  }

  /** Adds `delta` to the stock, or sets it to `count`: whichever the change carries. */
  async changeStock(
    target: WriteTarget | string,
    id: string,
    change: StockChange & { delta?: number | undefined; count?: number | undefined },
    within?: WithinWrite<Adjustment>,
  ): Promise<Adjustment> {
    const { delta, count, reason, note } = change;
    const now = this.clock.now();
    if (count !== undefined) {
      // A count is a count unless said otherwise.
      const counted = { count, reason: reason ?? 'counted', note };
      return this.products.countStock(target, id, counted, now, within);
    }
    return this.products.adjustStock(target, id, { delta: delta ?? 0, reason, note }, now, within);
  }
}
