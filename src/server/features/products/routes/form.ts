import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { IMAGE_MAX_BYTES, TAGS_MAX } from '../../../../shared/constants.js';
import { M } from '../../../../shared/messages.js';
import { HttpError, ValidationError } from '../../../lib/http-error.js';

const FIELDS = new Set([
  'name',
  'price',
  'stock',
  'description',
  'cost',
  'sku',
  'barcode',
  'reorderPoint',
  'reorderQuantity',
]);

/** The one field a form may repeat: each part is one tag (a blank one only says "no tags"). */
const TAGS = 'tags';
const IMAGE = 'image';

/** Multipart limits: one file, plus one more so that a second file is seen and refused. */
export const multipartLimits = {
  fileSize: IMAGE_MAX_BYTES,
  files: 2,
  // Every field once, the tags TAGS_MAX times and one more so that too many are seen and refused.
  fields: 8 + TAGS_MAX + 1,
  parts: 10 + TAGS_MAX + 1,
  fieldNameSize: 100,
  // The longest field, a 5,000-character description, in 4-byte characters.
  fieldSize: 20_000,
  headerPairs: 20,
};

/** Errors @fastify/multipart raises that http/errors.ts already answers with a 4xx. */
const MAPPED_CODES = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_PROTO_VIOLATION',
]);

/** What the parser raises for a body that is not well-formed multipart, or stops half-way. */
const MALFORMED_CODES = new Set([
  'FST_MP_PREMATURE_CLOSE',
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'ECONNRESET',
  'ERR_STREAM_PREMATURE_CLOSE',
]);
// busboy's own errors carry no code, only these messages.
const MALFORMED_MESSAGE = /^Multipart: |unexpected end of multipart data/i;

const isMalformedForm = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && MALFORMED_CODES.has(code)) return true;
  return typeof message === 'string' && MALFORMED_MESSAGE.test(message);
};

export const partError = (path: string, message: string) =>
  new ValidationError([{ path, message }]);

/**
 * Multipart bodies are invisible to fastify's validator, so the body of the routes that take one
 * is checked in the handler (multipart and JSON alike); their body schema only documents it.
 */
export const bodyCheckedInHandler: FastifySchemaCompiler<z.ZodType> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route);

/**
 * Runs `read` over a multipart body: a malformed or cut-off body becomes a 400 rather than
 * whatever the parser threw, the parser's limits stay the 4xx that http/errors.ts gives them,
 * and anything else failed on our side (a 500, logged by the error handler).
 */
export async function readingMultipart<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && MAPPED_CODES.has(code)) throw error;
    if (isMalformedForm(error)) throw new HttpError(400, M.badForm);
    throw error;
  }
}

interface Form {
  fields: Record<string, unknown>;
  image: Buffer | undefined;
}

/**
 * Reads a multipart product form into memory: text fields and at most one file, under `image`.
 * Unknown, repeated or oversized parts and a second file are refused; a malformed or cut-off
 * body is a 400 rather than whatever the parser threw; any other failure is the server's.
 */
async function readMultipart(request: FastifyRequest): Promise<Form> {
  const fields: Record<string, unknown> = {};
  let image: Buffer | undefined;
  await readingMultipart(async () => {
    for await (const part of request.parts()) {
      const { fieldname } = part;
      if (part.type === 'file') {
        if (fieldname !== IMAGE) throw partError(fieldname, M.unknownPart);
        if (image !== undefined) throw partError(IMAGE, M.oneImageOnly);
        const data = await part.toBuffer();
        if (part.file.truncated) throw new HttpError(413, M.imageTooLarge);
        // What a browser sends for a file input left empty: no name, no bytes. Not an upload.
        if (data.length === 0 && !part.filename) continue;
        image = data;
        continue;
      }
      // A form without a chosen file may send `image` as text: only a real file is kept.
      if (fieldname === IMAGE) continue;
      if (part.valueTruncated || part.fieldnameTruncated) throw new HttpError(413, M.bodyTooLarge);
      if (fieldname === TAGS) {
        const tags = (fields[TAGS] ??= []) as unknown[];
        if (typeof part.value === 'string' && part.value.trim() !== '') tags.push(part.value);
        continue;
      }
      if (!FIELDS.has(fieldname)) throw partError(fieldname, M.unknownPart);
      if (fieldname in fields) throw partError(fieldname, M.duplicatePart);
      fields[fieldname] = part.value;
    }
  });
  return { fields, image };
}

/**
 * The body of a create or update, multipart or JSON, checked with the shared schema. Fastify's
 * validator cannot see multipart fields, so both kinds are validated here, the same way.
 */
export async function readProductInput<S extends z.ZodType>(
  request: FastifyRequest,
  schema: S,
): Promise<{ data: z.output<S>; image: Buffer | undefined }> {
  let form: Form;
  if (request.isMultipart()) {
    form = await readMultipart(request);
  } else {
    const body: unknown = request.body ?? {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, M.bodyRequired);
    }
    form = { fields: body as Record<string, unknown>, image: undefined };
  }
  const parsed = schema.safeParse(form.fields);
  if (!parsed.success) throw ValidationError.fromIssues(parsed.error.issues);
  return { data: parsed.data, image: form.image };
}
