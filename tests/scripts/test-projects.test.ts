import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The projects a package.json script runs, by its `--project` flags. */
function projectsOf(script: string): string[] {
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
  return [...(scripts[script] as string).matchAll(/--project (\S+)/g)].map((match) => match[1]!);
}

/**
 * The projects of vitest.config.ts split the test files by where and how often they run (once,
 * or on both engines): a file moved between them, or a project left out of a script, must not
 * drop a file from CI, which runs `npm test`, `npm run test:server` and `npm run test:cluster`.
 */
it('runs every test file in exactly one project, and CI every project', () => {
  const files = readdirSync(path.join(root, 'tests'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => path.join(root, 'tests', file))
    .sort();
  const listed = JSON.parse(
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/vitest/vitest.mjs'), 'list', '--filesOnly', '--json'],
      { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    ),
  ) as { file: string; projectName: string }[];
  expect(listed.map((entry) => entry.file).sort()).toEqual(files);

  const ci = readFileSync(path.join(root, '.ci/run'), 'utf8');
  const scripts = ['test', 'test:server', 'test:cluster'];
  for (const script of scripts.slice(1)) expect(ci).toContain(`npm run ${script}\n`);
  expect(ci).toMatch(/^npm test$/m);
  const run = new Set(scripts.flatMap(projectsOf));
  expect([...new Set(listed.map((entry) => entry.projectName))].filter((p) => !run.has(p))).toEqual(
    [],
  );
});
