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

export const emailSchema = z
  .string({ error: V.emailRequired })
  .trim()
  .min(1, { error: V.emailRequired })
  .max(254, { error: V.emailInvalid })
  .pipe(z.email({ error: V.emailInvalid }))
  .transform((email) => email.toLowerCase());

export const nameSchema = requiredText(V.nameRequired).max(NAME_MAX, {
  error: V.nameMax,
});

/** Passwords are never trimmed or truncated (contract section 4). */
export const passwordSchema = z
  .string({ error: V.passwordRequired })
  .min(1, { error: V.passwordRequired })
  .regex(/\p{L}/u, { error: V.passwordLetter })
  .regex(/\p{N}/u, { error: V.passwordNumber })
  .min(PASSWORD_MIN, { error: V.passwordMin })
  .max(PASSWORD_MAX, { error: V.passwordMax });

export const codeSchema = z
  .string({ error: V.codeInvalid })
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), { error: V.codeInvalid });

export const messageSchema = z.object({ message: z.string() });

export const errorSchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;
