import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  GetObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

const here = path.dirname(fileURLToPath(import.meta.url));

/** s3rver checks request signatures against this fixed key pair. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A real S3-compatible server (s3rver) on loopback, keeping its objects in a temp folder, with
 * one bucket made at start. The app talks to it as to any S3 service; the test reads and writes
 * the bucket behind the app's back through `client`.
 */
export class TestS3Server {
  readonly bucket = 'stockroom-test';
  private child: ChildProcess | undefined;
  private directory = '';
  port = 0;
  private s3: S3Client | undefined;

  async start(): Promise<this> {
    this.directory = await mkdtemp(path.join(tmpdir(), 'stockroom-s3-'));
    const child = spawn(
      process.execPath,
      [
        '--openssl-legacy-provider',
        '--import',
        'tsx',
        path.join(here, 's3-server.ts'),
        this.directory,
        this.bucket,
      ],
      // Its standard input is how it knows this process is alive: it stops when the pipe closes.
      { cwd: path.resolve(here, '../..'), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child = child;
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    this.port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (line) =>
        resolve((JSON.parse(line) as { port: number }).port),
      );
      child.once('exit', () => reject(new Error(`the S3 server did not start: ${errors}`)));
    });
    return this;
  }

  get endpoint() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What S3ImageStorage and createImageStorage need to reach the bucket (path style by default). */
  get options() {
    return { bucket: this.bucket, endpoint: this.endpoint, region: 'us-east-1', ...CREDENTIALS };
  }

  /** A client of the test's own, to look into the bucket. */
  get client(): S3Client {
    this.s3 ??= new S3Client({
      endpoint: this.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: CREDENTIALS,
    });
    return this.s3;
  }

  /** Every key in the bucket (or under a prefix), sorted. */
  async keys(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    const pages = paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.bucket, Prefix: prefix },
    );
    for await (const page of pages) {
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    }
    return keys.sort();
  }

  /** An object's bytes and content type. */
  async object(key: string) {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return {
      body: Buffer.from((await res.Body?.transformToByteArray()) ?? []),
      contentType: res.ContentType,
    };
  }

  /** Writes an object directly, as something other than the app would. */
  async putObject(key: string, data: Buffer | string) {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data }));
  }

  /** Stops the server (in-flight requests finish) and removes its objects; again is a no-op. */
  async stop() {
    this.s3?.destroy();
    this.s3 = undefined;
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null) {
      const exited = once(child, 'exit');
      child.stdin!.end();
      await exited;
    }
    if (this.directory) await rm(this.directory, { recursive: true, force: true });
  }
}
