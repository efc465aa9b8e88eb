import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/processes.js';

/**
 * config.ts and app-secret.ts as one plain script: sixty processes each loading them through tsx
 * spent most of a minute of CPU on compiling, before the race they are started for.
 */
async function bundleSecretLoading(dir: string): Promise<string> {
  const outfile = path.join(dir, 'secret-loading.mjs');
  await build({
    stdin: {
      contents:
        "export { loadConfig } from './src/server/config.ts';\n" +
        "export { withAppSecret } from './src/server/app-secret.ts';\n",
      resolveDir: repoRoot,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/**
 * One process of a crowd: loads the configuration's code once, then for each line `{dir, at}` on
 * its standard input waits until the wall clock reaches `at` (all of them together) and loads the
 * configuration and its secret on that DATA_DIR without APP_SECRET, answering `{secret}` or `{problems}`.
 */
const childScript = (bundle: string) => `
const { loadConfig, withAppSecret } = await import(${JSON.stringify(bundle)});
const { createInterface } = await import('node:readline');
const pause = new Int32Array(new SharedArrayBuffer(4));
process.stdout.write('ready\\n');
for await (const line of createInterface({ input: process.stdin })) {
  const { dir, at } = JSON.parse(line);
  const early = at - Date.now() - 3;
  if (early > 0) Atomics.wait(pause, 0, 0, early);
  while (Date.now() < at);
  try {
    process.stdout.write(JSON.stringify({ secret: withAppSecret(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir })).appSecret }) + '\\n');
  } catch (error) {
    process.stdout.write(JSON.stringify({ problems: error.problems ?? [String(error)] }) + '\\n');
  }
}
`;

interface Child {
  process: ChildProcess;
  lines: Interface;
  next(): Promise<string>;
}

function startChild(script: string): Child {
  const child = spawn(process.execPath, ['--input-type=module', '--eval', script], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => {
    const resolve = waiting.shift();
    if (resolve) resolve(line);
    else queue.push(line);
  });
  return {
    process: child,
    lines,
    next: () =>
      new Promise((resolve, reject) => {
        const line = queue.shift();
        if (line !== undefined) return resolve(line);
        waiting.push(resolve);
        child.once('exit', (code) => reject(new Error(`a child exited with ${code}`)));
      }),
  };
}

const PROCESSES = 60;
const ROUNDS = 8;

/**
 * Processes started together on one empty DATA_DIR without APP_SECRET. Each generates a secret
 * when it finds none; if a reader could see the file between its creation and its content, it
 * would go on with an empty (or partial) secret and refuse every code the others issue.
 */
describe('the generated secret, with many processes starting on one DATA_DIR', () => {
  const children: Child[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    const code = await mkdtemp(path.join(tmpdir(), 'stockroom-secret-code-'));
    dirs.push(code);
    const script = childScript(await bundleSecretLoading(code));
    for (let i = 0; i < PROCESSES; i += 1) children.push(startChild(script));
    expect(new Set(await Promise.all(children.map((child) => child.next())))).toEqual(
      new Set(['ready']),
    );
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.process.stdin!.end();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it(
    'every process gets the same whole secret, the one in the file',
    { timeout: 120_000 },
    async () => {
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const dir = path.join(await mkdtemp(path.join(tmpdir(), 'stockroom-secret-')), 'data');
        dirs.push(path.dirname(dir));
        const at = Date.now() + 300;
        for (const child of children)
          child.process.stdin!.write(`${JSON.stringify({ dir, at })}\n`);
        const answers = (await Promise.all(children.map((child) => child.next()))).map(
          (line) => JSON.parse(line) as { secret?: string; problems?: string[] },
        );
        const stored = readFileSync(path.join(dir, 'secret.key'), 'utf8').trim();
        expect(stored).toMatch(/^[\w-]{64}$/);
        for (const answer of answers) {
          if (answer.secret !== stored) failures.push(JSON.stringify(answer));
        }
        // No temporary file is left behind.
        expect(await readdir(dir)).toEqual(['secret.key']);
      }
      expect(failures, `${failures.length} of ${PROCESSES * ROUNDS} processes`).toEqual([]);
    },
  );
});
