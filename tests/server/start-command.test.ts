import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/** Prints the capacity V8 gives the young generation once a burst of allocations has grown it. */
const NEW_SPACE_PROBE = `
const v8 = require('node:v8');
let kept = [];
for (let i = 0; i < 2e6; i += 1) kept.push({ i });
kept = null;
const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
console.log(space.space_size);
`;

describe('npm start', () => {
  it('runs the build with a young generation of at most 2 MiB, which bounds its resident memory', async () => {
    const { scripts } = JSON.parse(await readFile('package.json', 'utf8')) as {
      scripts: { start: string };
    };
    const [command, ...args] = scripts.start.split('&&').at(-1)!.trim().split(/\s+/);
    expect(command).toBe('node');
    expect(args.at(-1)).toBe('dist/server/index.js');
    const flags = args.slice(0, -1);
    const output = execFileSync(process.execPath, [...flags, '-e', NEW_SPACE_PROBE], {
      encoding: 'utf8',
    });
    // V8's default lets it grow to 32 MiB, held for good once grown.
    expect(Number(output)).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});
