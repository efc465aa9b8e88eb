import { z } from 'zod';
import { CODE_LENGTH, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import { V } from '../messages.js';

/** Whether text can be stored: PostgreSQL's text type cannot hold the NUL character. */
export const hasNoNul = (text: string) => !text.includes('\0');

/**
 * A required text field: missing, non-string and blank all give the same message. NUL characters
 * are refused (a 400 rather than the database's error).
 */
export const requiredText = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .refine(hasNoNul, { error: V.textNul });

/**
 * A body of optional fields that may be left out whole, as routes without a body are sent:
 * Fastify validates an absent body as null, read here as {} (each field's default). The OpenAPI
 * document says the body is not required (http/openapi/document.ts).
 */
export const optionalBody = <T extends z.ZodObject>(schema: T) =>
  z.preprocess((body) => body ?? {}, schema);

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether the text's date (its first ten characters, as written) is a day of the calendar:
 * Date.parse takes 30 February for a day in March.
 */
export function isCalendarDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

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

/**
 * The password rule (a letter and a number: Unicode \p{L} and \p{N}) as one pattern that any
 * regex engine reads alike, for the OpenAPI document: no \p{…}, no lookahead, no flag needed,
 * and linear (each step has one way on). It is exact for the characters up to U+00FF and counts
 * every character above as both, so it never refuses a password the server takes.
 * tests/shared/password-pattern.test.ts derives it again from \p{L} and \p{N}. It lives here
 * with the schema, not in constants.ts: only the lazily loaded schemas need it, not every page.
 */
export const PASSWORD_PATTERN =
  '^[\\x00-\\x2F\\x3A-\\x40\\x5B-\\x60\\x7B-\\xA9\\xAB-\\xB1\\xB4\\xB6-\\xB8\\xBB\\xBF\\xD7\\xF7]*' +
  '(?:[^\\x00-\\xFF]' +
  '|[A-Za-z\\xAA\\xB5\\xBA\\xC0-\\xD6\\xD8-\\xF6\\xF8-\\xFF][\\x00-\\x2F\\x3A-\\xB1\\xB4-\\xB8\\xBA\\xBB\\xBF-\\xFF]*[^\\x00-\\x2F\\x3A-\\xB1\\xB4-\\xB8\\xBA\\xBB\\xBF-\\xFF]' +
  '|[0-9\\xB2\\xB3\\xB9\\xBC-\\xBE][\\x00-\\x40\\x5B-\\x60\\x7B-\\xA9\\xAB-\\xB4\\xB6-\\xB9\\xBB-\\xBF\\xD7\\xF7]*[^\\x00-\\x40\\x5B-\\x60\\x7B-\\xA9\\xAB-\\xB4\\xB6-\\xB9\\xBB-\\xBF\\xD7\\xF7])';

const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;

/**
 * Passwords are never trimmed or truncated: every character counts. The letter and number checks are
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

/** Every error answer: `{message}`, plus `errors` for a 400 (fieldErrorSchema). */
export const errorSchema = z.object({ message: text(ANSWER_LIMITS.message) });

/** One failing field of a 400: its dotted path and its validation message (messages.ts). */
export const fieldErrorSchema = z.object({
  path: text(ANSWER_LIMITS.path),
  message: text(ANSWER_LIMITS.message),
});

/** A 400: the first failing field's message on top, then one entry per field when fields failed. */
export const validationErrorSchema = errorSchema.extend({
  errors: z.array(fieldErrorSchema).meta({ maxItems: ANSWER_LIMITS.fieldErrors }).optional(),
});
export type ApiError = z.infer<typeof validationErrorSchema>;
