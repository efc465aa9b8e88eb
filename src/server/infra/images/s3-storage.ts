import { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { keepOnSuccess } from '../../../shared/keep-on-success.js';
import { IMAGES_PATH, isImageName, type ImageStorage, type StoredFile } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  /** Any S3-compatible service; unset means AWS. */
  endpoint?: string;
  /** Default us-east-1. */
  region?: string;
  /** Both or neither; neither leaves the SDK to find credentials (AWS_* variables, roles). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Bucket in the path rather than the host name; default true when an endpoint is set. */
  forcePathStyle?: boolean;
  /** The app's PUBLIC_URL: files are served by the app, as from local disk. */
  publicUrl: string;
  /** The folder of the bucket the app owns; default `images/`. */
  prefix?: string;
  /** Keys per listing request: S3's most (1000) unless smaller. */
  listPageSize?: number;
  /** How long the service may stay silent (connecting, or mid-answer) before a request fails. */
  timeoutMs?: number;
}

// The SDK takes a quarter of a second and tens of megabytes to load: only the first image
// request that reaches the bucket pays for it.
const loadSdk = keepOnSuccess(() => import('@aws-sdk/client-s3'));

const isMissing = (error: unknown, sdk: Awaited<ReturnType<typeof loadSdk>>) =>
  error instanceof sdk.S3ServiceException && error.name === 'NoSuchKey';

/**
 * Image files as objects of an S3 bucket, for several app instances sharing one store. Objects
 * never change once written (see ImageStorage), and a PutObject is whole or absent, so there are
 * no temporaries here. Only names the app gives under its prefix are ever listed or touched:
 * the rest of the bucket may hold anything.
 */
export class S3ImageStorage implements ImageStorage {
  private readonly config: S3ClientConfig;
  private client: S3Client | undefined;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly publicBase: string;
  private readonly listPageSize: number;

  constructor(options: S3StorageOptions) {
    const { accessKeyId, secretAccessKey, endpoint } = options;
    if (!accessKeyId !== !secretAccessKey) {
      throw new Error('S3 credentials need both an access key id and a secret access key');
    }
    const timeout = options.timeoutMs ?? 15_000;
    const config: S3ClientConfig = {
      region: options.region ?? 'us-east-1',
      forcePathStyle: options.forcePathStyle ?? Boolean(endpoint),
      // Without timeouts an unreachable or stalled service holds every image request forever.
      requestHandler: { connectionTimeout: timeout, socketTimeout: timeout },
    };
    if (endpoint) {
      config.endpoint = endpoint;
      // The SDK's default checksum headers are recent; S3-compatible services vary in taking them,
      // and those the protocol requires are still sent.
      config.requestChecksumCalculation = 'WHEN_REQUIRED';
      config.responseChecksumValidation = 'WHEN_REQUIRED';
    }
    if (accessKeyId && secretAccessKey) config.credentials = { accessKeyId, secretAccessKey };
    this.config = config;
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? 'images/';
    this.publicBase = `${options.publicUrl}${IMAGES_PATH}`;
    this.listPageSize = options.listPageSize ?? 1000;
  }

  /** The SDK and its client, made on first use. */
  private async sdk() {
    const sdk = await loadSdk();
    this.client ??= new sdk.S3Client(this.config);
    return { sdk, client: this.client };
  }

  private keyOf(name: string): string {
    if (!isImageName(name)) throw new Error(`Invalid image file name: ${name}`);
    return `${this.prefix}${name}`;
  }

  async put(name: string, data: Buffer): Promise<void> {
    const { client, sdk } = await this.sdk();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(name),
        Body: data,
        ContentType: 'image/webp',
      }),
    );
  }

  async delete(name: string): Promise<void> {
    const { client, sdk } = await this.sdk();
    try {
      await client.send(
        new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(name) }),
      );
    } catch (error) {
      // S3 itself answers success for a missing key; some compatible services do not.
      if (!isMissing(error, sdk)) throw error;
    }
  }

  async *list(): AsyncIterable<StoredFile> {
    const { client, sdk } = await this.sdk();
    const pages = sdk.paginateListObjectsV2(
      { client, pageSize: this.listPageSize },
      { Bucket: this.bucket, Prefix: this.prefix },
    );
    for await (const page of pages) {
      for (const { Key, LastModified } of page.Contents ?? []) {
        const name = Key?.slice(this.prefix.length);
        if (name && isImageName(name) && LastModified) {
          yield { name, modifiedAt: LastModified.getTime() };
        }
      }
    }
  }

  close(): void {
    this.client?.destroy();
  }

  url(name: string): string {
    return `${this.publicBase}/${name}`;
  }

  async open(name: string) {
    if (!isImageName(name)) return undefined;
    const { client, sdk } = await this.sdk();
    let response;
    try {
      response = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(name) }),
      );
    } catch (error) {
      if (isMissing(error, sdk)) return undefined;
      throw error;
    }
    const { Body: body, ContentLength: size } = response;
    if (!(body instanceof Readable) || size === undefined) {
      if (body instanceof Readable) body.destroy();
      throw new Error(`S3 answered ${name} without a readable body and its length`);
    }
    return { stream: body, size };
  }
}
