/**
 * What `node dist/server/index.js` runs: the bundled server (server.cjs), compiled with the V8 code
 * cache the build wrote beside it (server.cjs.cache). Node 20 has no code cache for ES modules
 * of its own; without one, V8 parses the bundle and compiles each function again at every start,
 * about a third of a cold start. V8 checks that a cache matches the source, the Node version and
 * the flags; one that does not is ignored and the server starts as it would without it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const dir = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.join(dir, 'server.cjs');
const cacheFile = `${bundle}.cache`;

function readCache(): Buffer | undefined {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

const script = new vm.Script(
  `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`,
  { filename: bundle, cachedData: readCache() },
);

if (script.cachedDataRejected) {
  // Still starts, compiling as it goes: say why a start is slower than it should be.
  console.warn(
    `${cacheFile} was made for another Node version or other flags than \`npm start\` uses; starting without it`,
  );
}

// The build starts the server with an IPC channel, sends it requests, then asks for the cache:
// V8 then includes every function those requests compiled.
if (process.env.WRITE_CODE_CACHE === '1' && process.send) {
  process.on('message', (message) => {
    if (message !== 'write-code-cache') return;
    writeFileSync(cacheFile, script.createCachedData());
    process.send!('code-cache-written');
  });
}

const module = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(
  module.exports,
  createRequire(bundle),
  module,
  bundle,
  dir,
);
