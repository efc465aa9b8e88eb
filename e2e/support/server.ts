import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { buildIfChanged } from '../../scripts/build-digest.js';
import { START_FLAGS } from '../../scripts/start-command.js';
import { freePort } from '../../tests/support/ports.js';

/** The repository's root, where `npm run build` runs and dist/ lands. */
export const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * The files `npm run build` makes (client and server, as `npm start` builds them) unless dist/
 * holds a build of the current sources (scripts/build-digest.ts). Build errors go to stderr. Says
 * what it did.
 */
export async function buildTheApp(): Promise<string> {
  const started = Date.now();
  const outcome = await buildIfChanged(root, () => {
    // `npm run build` without its type checks (the API's types for the client, tsc on the
    // server), which make no file of dist/: `npm run typecheck` checks the same, and CI runs it
    // first. They were a third of the build's CPU (24 s of 73).
    const run = (command: string) =>
      execSync(command, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    run('npm run build:client');
    run('node --import tsx scripts/build-server.ts');
  });
  return outcome === 'reused'
    ? 'reused the build in dist/: its sources have not changed'
    : `built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

async function waitUntilReady(baseUrl: string, server: ChildProcess, logFile: string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(`The server exited with code ${server.exitCode}: see ${logFile}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server was not ready within 30 s: see ${logFile}`);
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

export interface RunningServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

/**
 * Starts the built server (`node dist/server/index.js` of `checkout`, this one by default) on a
 * free loopback port with `env` on top of this process's environment (DATA_DIR, SMTP_URL, … are
 * the caller's), its output in `logFile`, and waits until it answers /api/ready. `hostname` names
 * it in PUBLIC_URL and the base URL: `localhost` where an IP address will not do (passkeys).
 */
export async function startBuiltServer(
  env: NodeJS.ProcessEnv,
  logFile: string,
  checkout = root,
  hostname = '127.0.0.1',
) {
  const port = await freePort();
  const baseUrl = `http://${hostname}:${port}`;
  const log = createWriteStream(logFile);
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    ...env,
  };
  // As `npm start` runs it: its code cache is made for these flags.
  const server = spawn(process.execPath, [...START_FLAGS, 'dist/server/index.js'], {
    cwd: checkout,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  // Should the caller die without stopping it, the server must not outlive it.
  process.once('exit', () => server.kill('SIGKILL'));
  const stop = async () => {
    await stopServer(server);
    log.end();
  };
  try {
    await waitUntilReady(baseUrl, server, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop } satisfies RunningServer;
}
