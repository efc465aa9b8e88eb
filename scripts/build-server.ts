/**
 * Bundles the server into dist/server (run by `npm run build:server`, after tsc has checked it):
 * src/server/index.ts and what it imports in one ES module, the modules it loads on first use
 * (the database engine in use) in chunks of their own. Node then reads and links a handful
 * of files at start-up instead of some 1,200, which cuts the CPU time it takes (ADR 021).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

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

async function buildServer(outdir = path.join(root, 'dist/server')) {
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, 'src/server/index.ts')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: EXTERNAL,
    plugins: [zodEnglishOnly],
    // Whitespace and syntax only: names stay, so stack traces still read.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    // The bundled CommonJS packages call require() for Node's modules and the external packages.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
