import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What `npm run build` reads besides the root's Vite, React Router and TypeScript configs. */
const INPUTS = ['src', 'scripts', 'package.json', 'package-lock.json'];
const ROOT_CONFIGS = /^((vite|react-router)\.config\.[cm]?[jt]s|tsconfig(\.[\w-]+)?\.json)$/;
/** Written by the build from src itself, so not one of its inputs. */
const GENERATED = new Set(['src/client/lib/openapi.gen.d.ts']);
/** What a build must have left for the suite to run it. */
const OUTPUTS = ['dist/server/index.js', 'dist/client/index.html'];
/** The digest of the inputs a build was made from, beside what it made. */
const STAMP = 'dist/.source-digest';

async function filesUnder(root: string, name: string): Promise<string[]> {
  const info = await stat(path.join(root, name)).catch(() => undefined);
  if (!info) return [];
  if (!info.isDirectory()) return [name];
  const entries = await readdir(path.join(root, name));
  const nested = await Promise.all(entries.map((entry) => filesUnder(root, `${name}/${entry}`)));
  return nested.flat();
}

/** A SHA-256 over the path and content of every file the build reads, in a fixed order. */
export async function sourceDigest(root: string): Promise<string> {
  const configs = (await readdir(root)).filter((name) => ROOT_CONFIGS.test(name));
  const files = (await Promise.all([...INPUTS, ...configs].map((name) => filesUnder(root, name))))
    .flat()
    .filter((file) => !GENERATED.has(file))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

async function isCurrent(root: string, digest: string) {
  const stamp = await readFile(path.join(root, STAMP), 'utf8').catch(() => undefined);
  if (stamp !== digest) return false;
  const outputs = await Promise.all(
    OUTPUTS.map((file) => stat(path.join(root, file)).catch(() => undefined)),
  );
  return outputs.every(Boolean);
}

/**
 * Runs `build` unless dist/ holds a build of exactly the current inputs. The stamp is removed
 * before building and written only after a build succeeds, so a failed build is never reused.
 */
export async function buildIfChanged(
  root: string,
  build: () => void | Promise<void>,
): Promise<'built' | 'reused'> {
  const digest = await sourceDigest(root);
  if (await isCurrent(root, digest)) return 'reused';
  await rm(path.join(root, STAMP), { force: true });
  await build();
  await writeFile(path.join(root, STAMP), digest);
  return 'built';
}
