/**
 * The app's OpenAPI document as production serves it, built without a server or environment (a
 * throwaway embedded database), at OPENAPI_PUBLIC_URL (default https://stockroom.example).
 *   node --import tsx scripts/openapi.ts document <file.json>   the document (npm run lint:openapi)
 *   node --import tsx scripts/openapi.ts types <file.d.ts>      its TypeScript types
 * `types` writes only when the types changed, so that watchers stay quiet.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/server/app.js';
import { withAppSecret } from '../src/server/app-secret.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/infra/db/open.js';

async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-openapi-'));
  try {
    const config = withAppSecret(
      loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        APP_SECRET: 'openapi-document-only-not-a-secret-of-any-server',
        PUBLIC_URL: process.env.OPENAPI_PUBLIC_URL ?? 'https://stockroom.example',
      }),
    );
    const database = await openDatabase(config);
    const app = await buildApp({ config, database, clientDir: path.join(dataDir, 'no-client') });
    try {
      await app.ready();
      return app.swagger() as unknown as Record<string, unknown>;
    } finally {
      await app.close();
      await database.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const HEADER = `/**
 * Generated from the OpenAPI document by \`npm run openapi:types\` (scripts/openapi.ts, with
 * openapi-typescript) before every typecheck and build. Do not edit; not committed.
 */

`;

async function writeIfChanged(file: string, text: string) {
  const before = await readFile(file, 'utf8').catch(() => undefined);
  if (before === text) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

async function main() {
  const [command, file] = process.argv.slice(2);
  if ((command !== 'document' && command !== 'types') || !file) {
    console.error('usage: scripts/openapi.ts document <file.json> | types <file.d.ts>');
    process.exit(2);
  }
  const document = await buildOpenApiDocument();
  if (command === 'document') {
    await writeIfChanged(file, `${JSON.stringify(document, null, 2)}\n`);
  } else {
    const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]);
    await writeIfChanged(file, HEADER + astToString(ast));
  }
}

await main();
