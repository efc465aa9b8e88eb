import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { createSession } from '../../../src/server/features/accounts/sessions.js';
import { insertUser } from '../../../src/server/features/accounts/users.js';
import { openDatabase } from '../../../src/server/infra/db/open.js';
import { systemClock } from '../../../src/server/lib/clock.js';

export { freePort } from '../../support/ports.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Entry {
  child: ChildProcess;
  /** What it printed so far. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * The Node arguments that run the server entry: its bundle (entry-bundle.ts) where the project
 * made one, or its sources through tsx, which `preload` needs: more TypeScript modules for Node to
 * import first (paths from the repository's root), such as a trace of the modules the entry loads.
 */
function entryArguments(preload: string[]): string[] {
  const bundle = inject('serverEntryBundle');
  if (bundle && preload.length === 0) return [bundle];
  return [...['tsx', ...preload].flatMap((module) => ['--import', module]), 'src/server/index.ts'];
}

/**
 * Runs the real server entry with only the given variables besides PATH and HOME, so the
 * developer's environment does not leak in.
 */
export function startEntry(env: Record<string, string>, preload: string[] = []): Entry {
  const child = spawn(process.execPath, entryArguments(preload), {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Polls `url` until it answers 200, or fails after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs: number, entry?: Entry) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (entry && entry.child.exitCode !== null) {
      throw new Error(`the server exited with ${entry.child.exitCode}: ${entry.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A user and a live session written straight into the database of a server running in another
 * process (its DATA_DIR, or its PostgreSQL database): the bearer token.
 */
export async function sessionInDatabaseOf(
  where: { dataDir: string; databaseUrl: string | undefined },
  email: string,
): Promise<string> {
  const database = await openDatabase(where);
  try {
    const userId = await insertUser(
      database.db,
      { name: 'Process User', email, passwordHash: 'unused' },
      Date.now(),
    );
    return await createSession(database.db, systemClock, userId);
  } finally {
    await database.close();
  }
}
