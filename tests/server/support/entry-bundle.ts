import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** src/server/index.ts bundled into one script, for the tests that start server processes. */
    serverEntryBundle: string;
  }
}

/**
 * Global setup of the server projects: the server entry bundled once per run. A process started
 * through tsx compiled some 1,200 modules first, about a second of CPU each time, and the suites
 * start dozens (several instances racing to migrate one database, shutdowns, crashes). The bundle
 * is plain JavaScript of the same sources; packages stay in node_modules, which the script finds
 * from its folder in the repository's cache.
 */
export default async function setup(project: TestProject) {
  const folder = path.join(repoRoot, 'node_modules', '.cache', 'stockroom');
  await mkdir(folder, { recursive: true });
  const outfile = path.join(folder, `server-entry-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(repoRoot, 'src/server/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  project.provide('serverEntryBundle', outfile);
  return () => rm(outfile, { force: true });
}
