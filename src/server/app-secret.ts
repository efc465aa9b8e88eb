import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { ConfigError, MIN_SECRET_LENGTH, type Config, type LoadedConfig } from './config.js';

/**
 * The configuration with its secret: APP_SECRET when set, else the one kept in DATA_DIR, generated
 * (with DATA_DIR) on the first start. Called once at start-up: loading the configuration writes
 * nothing. Problems with the file are a ConfigError of one line.
 */
export function withAppSecret(config: LoadedConfig): Config {
  return { ...config, appSecret: config.appSecret ?? loadOrCreateSecret(config.dataDir) };
}

/**
 * The secret generated once and kept in DATA_DIR, so tokens and codes survive restarts. Several
 * processes may start on one empty DATA_DIR at the same moment: the file appears only whole (see
 * createSecretFile), so every one of them reads the same secret.
 */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  const secret = readSecretFile(file) ?? createSecretFile(file);
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError([
      `APP_SECRET is unset and ${file} holds fewer than ${MIN_SECRET_LENGTH} characters: set APP_SECRET, or delete the file to generate a new secret`,
    ]);
  }
  return secret;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The stored secret, or undefined when there is no file yet. */
function readSecretFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new ConfigError([
      `APP_SECRET is unset and ${file} cannot be read (${errorCode(error) ?? String(error)})`,
    ]);
  }
}

/**
 * Writes a new secret under a temporary name, flushes it, then hard-links it to the final name.
 * A link never replaces an existing file, so the first writer wins and the others read its
 * secret; and the final name only ever points at a complete file, where writing the file in place
 * would let a reader see it empty between its creation and its content.
 */
function createSecretFile(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${secret}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, file);
    syncDirectory(path.dirname(file));
    return secret;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return readSecretFile(file) ?? '';
    throw new ConfigError([
      `APP_SECRET is unset and a secret cannot be written to ${file} (${errorCode(error) ?? String(error)})`,
    ]);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Makes the new directory entry durable, so the secret outlives a power loss. */
function syncDirectory(dir: string) {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems cannot sync a directory; the secret is in place all the same.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
