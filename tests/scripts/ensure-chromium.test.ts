import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const nobody = 65534;

/**
 * The script runs from a copy in a folder every user can read: the checkout itself may sit in a
 * private folder (a clone under /root, or in `mktemp -d`) that `nobody` cannot enter.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'ensure-chromium-'));
chmodSync(dir, 0o755);
const script = path.join(dir, 'ensure-chromium.sh');
copyFileSync(path.resolve('scripts/ensure-chromium.sh'), script);
chmodSync(script, 0o755);

/**
 * Runs the set-up step the way `npm test` does, but as an unprivileged user when the suite runs as
 * root, so that installing is impossible: what a fresh machine without rights would see.
 */
function runSetup(env: Record<string, string>) {
  const asRoot = process.getuid?.() === 0;
  const command = asRoot ? 'setpriv' : 'bash';
  const args = asRoot
    ? [`--reuid=${nobody}`, `--regid=${nobody}`, '--clear-groups', 'bash', script]
    : [script];
  return spawnSync(command, args, {
    env: { PATH: '/usr/bin:/bin', ...env },
    encoding: 'utf8',
    cwd: tmpdir(),
  });
}

describe('npm test set-up: Chromium for the browser suite', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops with one line naming the command when the browser is absent and cannot be installed', () => {
    const result = runSetup({ CHROMIUM_PATH: path.join(dir, 'no-such-chromium') });

    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^npm test: CHROMIUM_PATH=.*no-such-chromium is not an executable file/,
    );
    expect(lines[0]).toContain('apt-get install -y chromium');
  });

  it('refuses a CHROMIUM_PATH that is not an executable file', () => {
    const notExecutable = path.join(dir, 'chromium.txt');
    writeFileSync(notExecutable, 'not a browser');
    const result = runSetup({ CHROMIUM_PATH: notExecutable });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('accepts the binary CHROMIUM_PATH names, silently', () => {
    const browser = path.join(dir, 'chrome');
    writeFileSync(browser, '#!/bin/sh\n');
    chmodSync(browser, 0o755);
    const result = runSetup({ CHROMIUM_PATH: browser });
    expect(result.status).toBe(0);
    expect(result.stdout + result.stderr).toBe('');
  });
});
