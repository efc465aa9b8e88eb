import { readFile } from 'node:fs/promises';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

type Lockfile = {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

async function readJson<T>(name: string): Promise<T> {
  return JSON.parse(await readFile(new URL(`../../${name}`, import.meta.url), 'utf8')) as T;
}

// `npm install` on the oldest Node the project supports must not warn about an unsupported
// engine: a package that needs a newer Node may break there. Optional packages are left out,
// since npm skips those it cannot use.
describe('the installed packages run on the Node the project supports', () => {
  it('every required package in the lockfile accepts the lowest supported Node', async () => {
    const project = await readJson<{ engines: { node: string } }>('package.json');
    const lowest = semver.minVersion(project.engines.node)?.version;
    expect(lowest).toBeDefined();

    const lockfile = await readJson<Lockfile>('package-lock.json');
    const unsupported = Object.entries(lockfile.packages)
      .filter(([, entry]) => !entry.optional)
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !semver.satisfies(lowest!, range) ? [`${name} needs Node ${range}`] : [];
      });
    expect(unsupported).toEqual([]);
  });
});
