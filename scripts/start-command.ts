/**
 * What `npm start` runs once the build is done, read from package.json: `node [flags] <entry>`.
 * The build writes its code cache for these flags (V8 refuses a cache made under others), and the
 * bench and the browser suite start the build with them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  scripts: { start: string };
};

/** The command itself, e.g. `node --max-semi-space-size=1 dist/server/index.js`. */
export const START_COMMAND = scripts.start.split('&&').at(-1)!.trim();

const [program, ...args] = START_COMMAND.split(/\s+/);
if (program !== 'node') throw new Error(`npm start does not end with a node command: ${program}`);

/** Node's flags in it. */
export const START_FLAGS = args.filter((arg) => arg.startsWith('-'));
