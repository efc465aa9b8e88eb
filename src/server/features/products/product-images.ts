import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ProcessedImage } from '../../infra/images/pipeline.js';
import type { ImageStorage } from '../../infra/images/storage.js';

export interface ImageUrls {
  image: string;
  thumbnail: string;
}

const files = (key: string) => ({ main: `${key}.webp`, thumbnail: `${key}-thumb.webp` });
const FILE = /^([0-9a-f]{32})(?:-thumb)?\.webp$/;

/**
 * A product's picture as stored: a random key naming two files. A new upload always gets a new
 * key, so URLs change exactly when the image changes and no two products ever share a file.
 */
export class ProductImages {
  constructor(
    private readonly storage: ImageStorage,
    private readonly placeholderUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The key a stored file belongs to, or undefined for a name `save` never gives. */
  static keyOf(name: string): string | undefined {
    return FILE.exec(name)?.[1];
  }

  urls(key: string | null): ImageUrls {
    if (!key) return { image: this.placeholderUrl, thumbnail: this.placeholderUrl };
    const { main, thumbnail } = files(key);
    return { image: this.storage.url(main), thumbnail: this.storage.url(thumbnail) };
  }

  /** Stores both files and returns their key; on failure nothing of them is left. */
  async save(image: ProcessedImage): Promise<string> {
    const key = randomBytes(16).toString('hex');
    const { main, thumbnail } = files(key);
    try {
      await this.storage.put(main, image.main);
      await this.storage.put(thumbnail, image.thumbnail);
    } catch (error) {
      await this.remove(key);
      throw error;
    }
    return key;
  }

  /**
   * Best effort: by the time files are removed the database no longer refers to them, so a
   * failure only leaves an orphan file behind, which is logged rather than failing the request.
   */
  async remove(key: string): Promise<void> {
    for (const name of Object.values(files(key))) {
      try {
        await this.storage.delete(name);
      } catch (error) {
        this.log.warn({ err: error, file: name }, 'could not delete an image file');
      }
    }
  }
}
