import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { atFileEnd } from './file-end.js';

/** A new empty directory under the system's temp dir, removed after the test file. */
export async function tempDir(prefix = 'stockroom-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  atFileEnd(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
