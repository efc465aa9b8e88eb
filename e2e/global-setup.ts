import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ENV } from './support/env.js';
import { generateImages } from './support/images.js';
import { buildTheApp, root, startBuiltServer, type RunningServer } from './support/server.js';
import { capturingSmtpServer } from './support/smtp.js';

const artifacts = path.join(root, 'e2e', 'artifacts');

/**
 * Builds the app unless dist/ is a build of the current sources, then starts a loopback SMTP server and the real server (`node
 * dist/server/index.js`) on a free port with a fresh DATA_DIR. Returns the teardown.
 */
export default async function globalSetup() {
  if (process.env.E2E_SKIP_BUILD !== '1') {
    console.log(`[e2e] ${await buildTheApp()}`);
  }

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'stockroom-e2e-'));
  const dataDir = path.join(tmp, 'data');
  const mailDir = path.join(tmp, 'mail');
  const filesDir = path.join(tmp, 'files');
  for (const dir of [dataDir, mailDir, filesDir]) mkdirSync(dir);
  mkdirSync(artifacts, { recursive: true });
  await generateImages(filesDir);

  const smtp = await capturingSmtpServer(mailDir).start();
  let server: RunningServer;
  try {
    server = await startBuiltServer(
      {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        APP_SECRET: randomBytes(48).toString('base64url'),
        // Every browser request comes from 127.0.0.1: the per-IP limits would throttle the suite.
        RATE_LIMIT_SENSITIVE: '100000',
        RATE_LIMIT_GENERAL: '100000',
        // SQLite in DATA_DIR, whatever the shell has set.
        DATABASE_URL: undefined,
        // The webhook spec's receiver listens on loopback, over plain http.
        WEBHOOKS_ALLOW_PRIVATE_NETWORK: 'true',
        // A request may say it came through a proxy on this computer from another address.
        TRUST_PROXY: '127.0.0.1',
      },
      path.join(artifacts, 'server.log'),
    );
  } catch (error) {
    await smtp.stop();
    throw error;
  }
  const { baseUrl } = server;

  const teardown = async () => {
    await server.stop();
    await smtp.stop();
    await rm(tmp, { recursive: true, force: true });
  };

  process.env[ENV.baseUrl] = baseUrl;
  process.env[ENV.mailDir] = mailDir;
  process.env[ENV.filesDir] = filesDir;
  return teardown;
}
