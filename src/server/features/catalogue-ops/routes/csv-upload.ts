import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { IMPORT_MAX_BYTES } from '../../../../shared/constants.js';
import { IMPORT_MAX_MB_TEXT, IMPORT_MAX_ROWS_TEXT, M } from '../../../../shared/messages.js';
import { HttpError } from '../../../lib/http-error.js';
import { currentSession } from '../../../http/authenticate.js';
import { partError, readingMultipart } from '../../products/index.js';
import { ImportRefused } from '../csv-records.js';
import type { CatalogueContext } from './context.js';

/** What the CSV imports (products, stock by location) share: the upload, its bounds, its turn. */

const FILE = 'file';

/** An import refused while others run: they take seconds, not minutes. */
const retryLater = { 'retry-after': '5' };

/** One file, under FILE; a second file or any other part is seen and refused. */
const importLimits = { fileSize: IMPORT_MAX_BYTES, files: 3, fields: 3, parts: 6 };

/**
 * The form as the OpenAPI document shows it (the handler reads the file as it streams in);
 * `header` says which columns the file's header names.
 */
export const csvFileBody = (header: string) =>
  z.object({
    file: z
      .string()
      .meta({ format: 'binary', maxLength: IMPORT_MAX_BYTES })
      .describe(
        `CSV, UTF-8 (a BOM is fine), at most ${IMPORT_MAX_MB_TEXT} and ${IMPORT_MAX_ROWS_TEXT} rows; ${header}`,
      ),
  });

/** What the imports' documents say of the Idempotency-Key. */
export const KEYED_IMPORT_NOTE =
  'With an `Idempotency-Key`, an import sent again (the same file and query) gets its first answer again and imports nothing more; another file or query under the key is 422. A dry run writes nothing, so it is neither stored under the key nor answered from it; a file refused for its rows is not stored either.';

/** A checked file, and the digest of its bytes: what tells two files apart under one key. */
export interface CsvFile<Check> {
  check: Check;
  digest: string;
}

/**
 * Reads and checks the CSV file of a multipart body as it arrives. No file, another part or a
 * second file is a 400; a file too large a 413. A file that cannot be imported at all is returned
 * as its ImportRefused, for the route to answer with its own report.
 */
export async function readCsvFile<Check>(
  request: FastifyRequest,
  checkFile: (file: Readable, truncated: () => boolean) => Promise<Check>,
): Promise<CsvFile<Check> | ImportRefused> {
  if (!request.isMultipart()) throw new HttpError(415, M.importNotMultipart);
  let read: CsvFile<Check> | undefined;
  try {
    await readingMultipart(async () => {
      for await (const part of request.parts({ limits: importLimits })) {
        if (part.fieldname !== FILE) throw partError(part.fieldname, M.unknownPart);
        if (part.type !== 'file') throw partError(FILE, M.importNoFile);
        if (read) throw partError(FILE, M.importOneFile);
        // The check reads the whole file, pausing it between chunks; this listener sees each
        // chunk too. Both are added in this turn of the event loop, before any data flows.
        const hash = createHash('sha256');
        part.file.on('data', (chunk: Buffer) => hash.update(chunk));
        const check = await checkFile(part.file, () => part.file.truncated);
        read = { check, digest: hash.digest('base64url') };
      }
    });
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    if (error.statusCode === 413) throw new HttpError(413, error.message);
    return error;
  }
  if (!read) throw partError(FILE, M.importNoFile);
  return read;
}

/**
 * Runs an import in the caller's import slot: one import of a user at a time (429), a few per
 * server (503), both refused before the file is read (the body is drained and dropped).
 */
export async function inImportSlot<T>(
  context: CatalogueContext,
  request: FastifyRequest,
  run: () => Promise<T>,
): Promise<T> {
  const slot = await context.imports.take(currentSession(request).user.id);
  if (slot === 'owner-busy') throw new HttpError(429, M.importRunning, retryLater);
  if (slot === 'full') throw new HttpError(503, M.importsBusy, retryLater);
  try {
    return await run();
  } finally {
    slot();
  }
}
