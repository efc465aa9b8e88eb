import { processImage } from '../../infra/images/pipeline.js';
import type { Stage } from '../writes/index.js';
import type { ProductImages } from './product-images.js';
import type { StoredImage } from './rows.js';

/**
 * An upload decoded and stored before its write's transaction opens (after `first`, a check that
 * may refuse the request), and removed again if the write fails: a failed request leaves neither a
 * row nor a file behind. Files a committed change no longer refers to are removed after the
 * commit, or kept while it can be undone.
 */
export function uploadStage(
  images: ProductImages,
  upload: Buffer | undefined,
  first?: () => Promise<void>,
): Stage<StoredImage | undefined> {
  return {
    async prepare() {
      await first?.();
      if (!upload) return undefined;
      const processed = await processImage(upload);
      const key = await images.save(processed);
      return { key, width: processed.width, height: processed.height };
    },
    async discard(image) {
      if (image) await images.remove(image.key);
    },
  };
}
