import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIfChanged, sourceDigest } from '../../scripts/build-digest.js';

/** A checkout in miniature: what the build reads, and a dist/ it wrote. */
async function checkout(root: string) {
  const files: Record<string, string> = {
    'package.json': '{"name":"x"}',
    'package-lock.json': '{"lockfileVersion":3}',
    'vite.config.ts': 'export default {};',
    'react-router.config.ts': 'export default {};',
    'tsconfig.json': '{}',
    'src/server/index.ts': 'console.log(1);',
    'src/client/index.html': '<!doctype html>',
    'src/client/lib/openapi.gen.d.ts': 'export type A = 1;',
    'scripts/precompress.ts': 'export {};',
    'README.md': '# x',
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
}

describe('reusing a build only when it is current', () => {
  let root: string;
  let builds: number;
  const build = async () => {
    builds += 1;
    for (const name of ['dist/server/index.js', 'dist/client/index.html']) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await writeFile(path.join(root, name), `build ${builds}`);
    }
  };
  const edit = (name: string, text: string) => writeFile(path.join(root, name), text);

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'stockroom-digest-'));
    builds = 0;
    await checkout(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('builds the first time, then reuses the build while nothing it reads changed', async () => {
    expect(await buildIfChanged(root, build)).toBe('built');
    expect(await buildIfChanged(root, build)).toBe('reused');
    // What the build does not read, and what it writes itself, do not count.
    await edit('README.md', '# y');
    await edit('src/client/lib/openapi.gen.d.ts', 'export type A = 2;');
    await edit('dist/server/index.js', '// changed');
    expect(await buildIfChanged(root, build)).toBe('reused');
    expect(builds).toBe(1);
  });

  it.each([
    'src/server/index.ts',
    'src/client/index.html',
    'package-lock.json',
    'package.json',
    'vite.config.ts',
    'react-router.config.ts',
    'tsconfig.json',
    'scripts/precompress.ts',
  ])('builds again after %s changed', async (name) => {
    await buildIfChanged(root, build);
    await edit(name, 'changed');
    expect(await buildIfChanged(root, build)).toBe('built');
    expect(await buildIfChanged(root, build)).toBe('reused');
    expect(builds).toBe(2);
  });

  it('builds again after a source file is added or renamed', async () => {
    const before = await sourceDigest(root);
    await edit('src/server/extra.ts', '');
    const added = await sourceDigest(root);
    expect(added).not.toBe(before);
    await rm(path.join(root, 'src/server/extra.ts'));
    await edit('src/server/other.ts', '');
    expect(await sourceDigest(root)).not.toBe(added);
  });

  it('builds again when dist/ is gone, and leaves no stamp behind a failed build', async () => {
    await buildIfChanged(root, build);
    await rm(path.join(root, 'dist', 'server'), { recursive: true });
    expect(await buildIfChanged(root, build)).toBe('built');
    await edit('src/server/index.ts', 'broken');
    await expect(
      buildIfChanged(root, () => Promise.reject(new Error('build failed'))),
    ).rejects.toThrow('build failed');
    expect(await buildIfChanged(root, build)).toBe('built');
  });
});
