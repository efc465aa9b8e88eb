import path from 'node:path';
import { S3ImageStorage } from './s3-storage.js';
import { IMAGES_PATH, LocalImageStorage, type ImageStorage } from './storage.js';

/** The configuration's image settings: an S3 bucket when one is named, else local disk. */
export interface ImageStorageOptions {
  dataDir: string;
  publicUrl: string;
  bucket?: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
}

export function createImageStorage(options: ImageStorageOptions): ImageStorage {
  const { dataDir, publicUrl, bucket, ...s3 } = options;
  if (bucket) return new S3ImageStorage({ ...s3, bucket, publicUrl });
  return new LocalImageStorage(path.join(dataDir, 'images'), `${publicUrl}${IMAGES_PATH}`);
}
