import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/processes.js';
import { tempDir } from '../../support/temp-dirs.js';

/*
 * A script that opens the embedded database, writes and closes it (the OpenAPI script does) must
 * end once the close resolves. The checkpoint worker a commit starts is unreferenced, so that it
 * never keeps a process alive; a close that waits for it must hold the process until it has gone,
 * or Node ends the process with "unsettled top-level await" (exit 13) half-way.
 */
const SCRIPT = `
import { openDatabase } from './src/server/infra/db/open.ts';
for (let i = 0; i < 5; i += 1) {
  const handle = await openDatabase({ dataDir: process.env.DIR + '/' + i });
  await handle.close();
}
console.log('closed');
`;

describe.skipIf(process.env.TEST_DATABASE_URL)('closing the embedded database', () => {
  it('waits for the checkpoint worker without ending the process early', async () => {
    const dir = await tempDir();
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', SCRIPT],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DIR: dir },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('closed');
    expect(run.status).toBe(0);
  });
});
