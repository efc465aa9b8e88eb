import { z } from 'zod';
import { V } from '../messages.js';
import { NAME_MAX, PASSWORD_MAX } from '../constants.js';
import {
  ANSWER_LIMITS,
  codeSchema,
  EMAIL_MAX,
  emailSchema,
  nameSchema,
  passwordSchema,
} from './common.js';

/** Puts 'Passwords do not match' on the confirmation field, where the form shows it. */
const matching =
  <K extends string, C extends string>(key: K, confirmKey: C) =>
  (value: Record<K | C, string>, ctx: z.RefinementCtx) => {
    if (value[key] !== value[confirmKey]) {
      ctx.addIssue({ code: 'custom', message: V.passwordsMismatch, path: [confirmKey] });
    }
  };

export const signupSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: z
      .string({ error: V.confirmPasswordRequired })
      .min(1, { error: V.confirmPasswordRequired })
      // Documented only: a longer one cannot equal a valid password.
      .meta({ maxLength: PASSWORD_MAX }),
  })
  .superRefine(matching('password', 'confirmPassword'));
export type SignupInput = z.input<typeof signupSchema>;

export const loginSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: V.passwordRequired })
    .min(1, { error: V.passwordRequired })
    // Documented only: no account has a longer password.
    .meta({ format: 'password', maxLength: PASSWORD_MAX }),
});
export type LoginInput = z.input<typeof loginSchema>;

/** Resend confirmation and forgot password share one e-mail schema. */
export const emailOnlySchema = z.object({ email: emailSchema });
export type EmailOnlyInput = z.input<typeof emailOnlySchema>;

/**
 * A code, optionally bound to the e-mail it was sent to (the mail's link carries both). The API
 * calls the code `token`.
 */
export const codeBodySchema = z.object({
  token: codeSchema,
  email: emailSchema.optional(),
});
export type CodeBody = z.input<typeof codeBodySchema>;
export const codeFormSchema = z.object({ token: codeSchema });

export const resetPasswordSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: passwordSchema,
    email: emailSchema.optional(),
  })
  .superRefine(matching('password', 'confirmPassword'));
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export const resetPasswordParamsSchema = z.object({ token: codeSchema });

export const profileSchema = z.object({ name: nameSchema, email: emailSchema });
export type ProfileInput = z.input<typeof profileSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: passwordSchema,
    newPassword: passwordSchema,
    confirmNewPassword: passwordSchema,
  })
  .superRefine(matching('newPassword', 'confirmNewPassword'));
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/**
 * The current user as the spec gives it: id, name and e-mail, nothing else. Formats document what
 * the server sends; they check nothing on the way in (the client parses).
 */
export const userSchema = z.object({
  id: z.string().meta({ format: 'uuid', maxLength: 36 }),
  name: z.string().meta({ maxLength: NAME_MAX }),
  email: z.string().meta({ format: 'email', maxLength: EMAIL_MAX }),
});
export type User = z.infer<typeof userSchema>;
export const userResponseSchema = z.object({ user: userSchema });
export const tokenResponseSchema = z.object({
  message: z.string().meta({ maxLength: ANSWER_LIMITS.message }),
  token: z.string().meta({ pattern: '^[A-Za-z0-9_-]+$', maxLength: ANSWER_LIMITS.token }),
});

/** The second steps a sign-in may ask for once the password was right. */
export const SECOND_STEP_METHODS = ['totp', 'recovery', 'passkey'] as const;
export type SecondStepMethod = (typeof SECOND_STEP_METHODS)[number];

/** `POST /api/auth/login` for an account with two-factor sign-in: no token yet. */
export const secondStepNeededSchema = z.object({
  message: z.string().meta({ maxLength: ANSWER_LIMITS.message }),
  mfa: z.object({
    challengeId: z.string().meta({ maxLength: 100 }),
    methods: z.array(z.enum(SECOND_STEP_METHODS)).meta({ maxItems: SECOND_STEP_METHODS.length }),
  }),
});
export type SecondStepNeeded = z.infer<typeof secondStepNeededSchema>['mfa'];

/** `POST /api/auth/login`: a token, or (two-factor sign-in) what to finish with. */
export const loginResponseSchema = z.union([tokenResponseSchema, secondStepNeededSchema]);
