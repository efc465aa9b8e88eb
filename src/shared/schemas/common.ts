import { z } from 'zod';
import {
  CODE_LENGTH,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PASSWORD_PATTERN,
} from '../constants.js';
import { V } from '../messages.js';

/** A required text field: missing, non-string and blank all give the same message. */
export const requiredText = (message: string) =>
  z.string({ error: message }).trim().min(1, { error: message });

export const EMAIL_MAX = 254;

export const emailSchema = z
  .string({ error: V.emailRequired })
  .trim()
  .min(1, { error: V.emailRequired })
  .max(EMAIL_MAX, { error: V.emailInvalid })
  .pipe(z.email({ error: V.emailInvalid }))
  .transform((email) => email.toLowerCase())
  .meta({ format: 'email' });

export const nameSchema = requiredText(V.nameRequired).max(NAME_MAX, {
  error: V.nameMax,
});

const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;

/**
 * Passwords are never trimmed or truncated (contract section 4). The letter and number checks are
 * refinements, not `.regex()`: two regexes would be documented as two `\p{…}` patterns, which a
 * plain regex engine cannot read and some validators merge into one that refuses every password.
 * The document states the rule as PASSWORD_PATTERN instead.
 */
export const passwordSchema = z
  .string({ error: V.passwordRequired })
  .min(1, { error: V.passwordRequired })
  .refine((value) => LETTER.test(value), { error: V.passwordLetter })
  .refine((value) => NUMBER.test(value), { error: V.passwordNumber })
  .min(PASSWORD_MIN, { error: V.passwordMin })
  .max(PASSWORD_MAX, { error: V.passwordMax })
  .meta({
    format: 'password',
    pattern: PASSWORD_PATTERN,
    description:
      'At least one letter and one number (any script: Unicode \\p{L} and \\p{N}). The pattern is exact up to U+00FF and takes any character above as both.',
  });

export const codeSchema = z
  .string({ error: V.codeInvalid })
  .regex(new RegExp(`^[0-9]{${CODE_LENGTH}}$`), { error: V.codeInvalid })
  .meta({ maxLength: CODE_LENGTH });

/**
 * Bounds of what the server sends, for the OpenAPI document (`.meta` checks nothing: the client
 * parses answers with these schemas as before). The server's test suite checks every answer
 * against the document, bounds included.
 */
export const ANSWER_LIMITS = {
  /** A message: one of the app's texts. */
  message: 1_000,
  /** A failing field's dotted path (multipart field names are cut at 100). */
  path: 100,
  /** Failing fields of one 400: one per field of the largest body, with room to spare. */
  fieldErrors: 50,
  /** A bearer token (authenticate.ts takes at most 200 characters). */
  token: 200,
  /** An absolute URL built on PUBLIC_URL. */
  url: 2_048,
} as const;

const text = (maxLength: number) => z.string().meta({ maxLength });

export const messageSchema = z.object({ message: text(ANSWER_LIMITS.message) });

/** Every error answer (contract section 3). */
export const errorSchema = z.object({ message: text(ANSWER_LIMITS.message) });

/** One failing field of a 400: its dotted path and the spec's message. */
export const fieldErrorSchema = z.object({
  path: text(ANSWER_LIMITS.path),
  message: text(ANSWER_LIMITS.message),
});

/** A 400: the first failing field's message on top, then one entry per field when fields failed. */
export const validationErrorSchema = errorSchema.extend({
  errors: z.array(fieldErrorSchema).meta({ maxItems: ANSWER_LIMITS.fieldErrors }).optional(),
});
export type ApiError = z.infer<typeof validationErrorSchema>;
