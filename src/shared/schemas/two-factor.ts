import { z } from 'zod';
import { A } from '../account-messages.js';
import { PASSWORD_MAX } from '../constants.js';
import { RECOVERY_CODE_COUNT, RECOVERY_CODE_PATTERN, TOTP_DIGITS } from '../two-factor.js';
import { ANSWER_LIMITS } from './common.js';
import { int32 } from './products.js';
import { assertionSchema } from './passkeys.js';

const message = z.string().meta({ maxLength: ANSWER_LIMITS.message });

/** A sign-in's second step in progress: an opaque id, valid for a few minutes. */
const challengeIdSchema = z
  .string({ error: A.signInExpired })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: A.signInExpired })
  .meta({ maxLength: 100 });

const totpCodeSchema = z
  .string({ error: A.totpCodeInvalid })
  .regex(new RegExp(`^[0-9]{${TOTP_DIGITS}}$`), { error: A.totpCodeInvalid })
  .meta({ maxLength: TOTP_DIGITS });

/** Typed as shown or not: case, spaces and the dash do not matter. */
const recoveryCodeSchema = z
  .string({ error: A.recoveryCodeWrong })
  .min(1, { error: A.recoveryCodeWrong })
  .max(40, { error: A.recoveryCodeWrong });

/** `POST /api/auth/login/mfa`: the sign-in's id and exactly one second step. */
export const loginMfaSchema = z
  .object({
    challengeId: challengeIdSchema,
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    assertion: assertionSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const given = [body.code, body.recoveryCode, body.assertion].filter((v) => v !== undefined);
    if (given.length !== 1)
      ctx.addIssue({ code: 'custom', message: A.oneSecondStep, path: ['code'] });
  });
export type LoginMfaInput = z.input<typeof loginMfaSchema>;

/** `POST /api/auth/mfa/totp`: the secret to type, and the same as a QR code's text. */
export const totpSetupSchema = z.object({
  secret: z.string().meta({ pattern: '^[A-Z2-7]+$', maxLength: 64 }),
  otpauthUrl: z.string().meta({ format: 'uri', maxLength: ANSWER_LIMITS.url }),
});

export const totpConfirmSchema = z.object({ code: totpCodeSchema });

export const recoveryCodesResponseSchema = z.object({
  message,
  recoveryCodes: z
    .array(z.string().meta({ pattern: RECOVERY_CODE_PATTERN, maxLength: 11 }))
    .meta({ minItems: RECOVERY_CODE_COUNT, maxItems: RECOVERY_CODE_COUNT }),
});

/** A current authenticator code or an unused recovery code. */
const secondFactorCodeSchema = z
  .string({ error: A.codeRequired })
  .min(1, { error: A.codeRequired })
  .max(40, { error: A.secondFactorCodeWrong });

const passwordCheckSchema = z
  .string({ error: A.passwordRequired })
  .min(1, { error: A.passwordRequired })
  .meta({ format: 'password', maxLength: PASSWORD_MAX });

/** `DELETE /api/auth/mfa/totp`: the password and a code, so a session left open cannot. */
export const totpDisableSchema = z.object({
  password: passwordCheckSchema,
  code: secondFactorCodeSchema,
});
export type TotpDisableInput = z.input<typeof totpDisableSchema>;

/** `POST /api/auth/mfa/recovery-codes`: a code proves the authenticator is at hand. */
export const recoveryCodesRequestSchema = z.object({ code: totpCodeSchema });

/** `GET /api/auth/mfa`: what the profile's security screen shows. */
export const twoFactorStatusSchema = z.object({
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int().meta(int32(RECOVERY_CODE_COUNT)),
});

/** `DELETE /api/auth/passkeys/{passkeyId}`: the password, so a session left open cannot. */
export const passkeyRemoveSchema = z.object({ password: passwordCheckSchema });
