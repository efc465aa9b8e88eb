/**
 * Cold starts of `npm run bench`: a server process started from nothing (`node <script>`), timed
 * from the spawn to its first 200 on a given request, then left idle to read its resident memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { START_COMMAND, START_FLAGS } from '../scripts/start-command.js';
import { freePort } from '../tests/support/ports.js';
import { ROUNDS } from './measure.js';
import { cpuSeconds, procStatus } from './proc.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

/** The production build's entry. */
export const BUILT_SERVER = path.join(root, 'dist/server/index.js');

/** `npm start`'s command and Node's arguments in it, the entry's path made absolute. */
export { START_COMMAND };
export const START_ARGS = [...START_FLAGS, BUILT_SERVER];

/** How long a server stays idle after its first answer before its memory is read. */
const IDLE_MS = 3_000;
/** Cold starts per server, alternating between the servers compared. */
const STARTS = 2 * ROUNDS - 1;

/**
 * bench/bare-server.ts as plain JavaScript, written into `dir`: the yardstick starts as `node
 * bare-server.mjs`, like the app's build, with no TypeScript loader in its time or its memory.
 */
export async function compileBareServer(dir: string) {
  const source = await readFile(path.join(here, 'bare-server.ts'), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20' });
  const file = path.join(dir, 'bare-server.mjs');
  await writeFile(file, code);
  return file;
}

export interface Server {
  child: ChildProcess;
  url: string;
}

/** Starts `node <args>` with PORT set to a free port; resolves once `ready` answers 200. */
export async function launch(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready = '/api/health',
): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await firstOk(child, url + ready, {});
  return { child, url };
}

/** Polls until `url` answers 200, every 2 ms; fails if the process exits first. */
async function firstOk(child: ChildProcess, url: string, headers: Record<string, string>) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export function stopProcess(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** One server's cold starts: medians, and the machine's load average around them. */
export interface StartFigure {
  /** From the spawn to the first 200 of the request. */
  ms: number;
  /** The process's CPU time (user + system) by then. */
  cpuMs: number;
  /** Resident memory IDLE_MS after that answer. */
  idleRss: number;
  load: [number, number];
}

export interface StartSubject {
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The request timed: a path, and its headers (the app's bearer token). */
  path: string;
  headers: Record<string, string>;
}

/** Cold starts of each subject, STARTS times, in turns; the median of each. */
export async function measureStarts(subjects: StartSubject[]): Promise<StartFigure[]> {
  const load = os.loadavg()[0]!;
  // fetch's first call pays for loading undici in this process: not the server's time.
  await fetch('http://127.0.0.1:1').catch(() => undefined);
  const runs: { ms: number; cpuMs: number; idleRss: number }[][] = subjects.map(() => []);
  for (let i = 0; i < STARTS; i += 1) {
    for (const [s, subject] of subjects.entries()) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const started = performance.now();
      const child = spawn(process.execPath, subject.args, {
        env: { ...process.env, ...subject.env, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      try {
        await firstOk(child, url + subject.path, subject.headers);
        const ms = performance.now() - started;
        const cpuMs = cpuSeconds(child.pid!) * 1000;
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        runs[s]!.push({ ms, cpuMs, idleRss: procStatus(child.pid!, 'VmRSS') ?? 0 });
      } finally {
        await stopProcess(child);
      }
    }
  }
  const end = os.loadavg()[0]!;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  return runs.map((figures) => ({
    ms: median(figures.map((f) => f.ms)),
    cpuMs: median(figures.map((f) => f.cpuMs)),
    idleRss: median(figures.map((f) => f.idleRss)),
    load: [load, end],
  }));
}
