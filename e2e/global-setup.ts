import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ENV } from './support/env.js';
import { generateImages } from './support/images.js';
import { capturingSmtpServer } from './support/smtp.js';
import { newAccount } from './support/accounts.js';

const root = path.resolve(import.meta.dirname, '..');
const artifacts = path.join(root, 'e2e', 'artifacts');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
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

/**
 * Builds the app once, then starts a loopback SMTP server and the real server (`node
 * dist/server/index.js`) on a free port with a fresh DATA_DIR. Returns the teardown.
 */
export default async function globalSetup() {
  if (process.env.E2E_SKIP_BUILD !== '1') {
    const started = Date.now();
    execSync('npm run build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(`[e2e] built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'stockroom-e2e-'));
  const dataDir = path.join(tmp, 'data');
  const mailDir = path.join(tmp, 'mail');
  const filesDir = path.join(tmp, 'files');
  for (const dir of [dataDir, mailDir, filesDir]) mkdirSync(dir);
  mkdirSync(artifacts, { recursive: true });
  await generateImages(filesDir);

  const smtp = await capturingSmtpServer(mailDir).start();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(artifacts, 'server.log');
  const log = createWriteStream(logFile);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    SMTP_URL: smtp.url,
    APP_SECRET: randomBytes(48).toString('base64url'),
    // Every browser request comes from 127.0.0.1: the per-IP limits would throttle the suite.
    RATE_LIMIT_SENSITIVE: '100000',
    RATE_LIMIT_GENERAL: '100000',
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ['dist/server/index.js'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  // Should the runner die without its teardown, the server must not outlive it.
  process.once('exit', () => server.kill('SIGKILL'));

  const teardown = async () => {
    await stopServer(server);
    await smtp.stop();
    log.end();
    await rm(tmp, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(baseUrl, server, logFile);
    // The server sends at most one confirmation code a minute to an address, so the resend test
    // uses an account signed up now: by the time it runs, most of that minute has passed.
    const early = newAccount('early');
    const response = await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...early, confirmPassword: early.password }),
    });
    if (response.status !== 201) throw new Error(`early sign-up failed: ${response.status}`);
    process.env[ENV.earlyAccount] = JSON.stringify({ ...early, signedUpAt: Date.now() });
  } catch (error) {
    await teardown();
    throw error;
  }

  process.env[ENV.baseUrl] = baseUrl;
  process.env[ENV.mailDir] = mailDir;
  process.env[ENV.filesDir] = filesDir;
  return teardown;
}
