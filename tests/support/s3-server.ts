/**
 * Runs s3rver on a loopback port: `node --openssl-legacy-provider --import tsx s3-server.ts DIR
 * BUCKET`. Prints `{"port":N}` once listening; stops when its standard input closes (the test
 * that started it is done, or gone). A process of its own because s3rver encrypts its list
 * continuation tokens with DES, which Node's OpenSSL 3 offers only behind that flag: without it,
 * any listing longer than one page fails.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** The part of s3rver (no type definitions of its own) used here. */
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => { run(): Promise<AddressInfo>; close(): Promise<void> };
const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) throw new Error('usage: s3-server.ts DIRECTORY BUCKET');

const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.once('end', () => {
  void server.close().finally(() => process.exit(0));
});
process.stdin.resume();
