import { z } from 'zod';
import { A } from '../account-messages.js';
import { ANSWER_LIMITS } from './common.js';
import { int32, timestamp } from './products.js';

/** Base64url, as WebAuthn's JSON forms carry bytes. */
const bytes = (maxLength: number) =>
  z
    .string({ error: A.passkeyRefused })
    .regex(/^[A-Za-z0-9_-]*$/, { error: A.passkeyRefused })
    .max(maxLength, { error: A.passkeyRefused });

/** What WebAuthn's extensions answered; only those a passkey's check reads are kept. */
const extensionResults = z
  .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
  .optional();
const attachment = z.enum(['platform', 'cross-platform']).optional();

/** A passkey's signature of a sign-in's challenge (WebAuthn's AuthenticationResponseJSON). */
export const assertionSchema = z.object(
  {
    id: bytes(1_400),
    rawId: bytes(1_400),
    type: z.literal('public-key', { error: A.passkeyRefused }),
    response: z.object({
      clientDataJSON: bytes(4_000),
      authenticatorData: bytes(4_000),
      signature: bytes(2_000),
      userHandle: bytes(200).optional(),
    }),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensionResults,
  },
  { error: A.passkeyRefused },
);
export type Assertion = z.infer<typeof assertionSchema>;

/** A new passkey (WebAuthn's RegistrationResponseJSON). */
export const attestationSchema = z.object(
  {
    id: bytes(1_400),
    rawId: bytes(1_400),
    type: z.literal('public-key', { error: A.passkeyRefused }),
    response: z.object({
      clientDataJSON: bytes(4_000),
      attestationObject: bytes(24_000),
      authenticatorData: bytes(4_000).optional(),
      transports: z.array(z.string().max(20)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().meta(int32(2_147_483_647, -2_147_483_648)).optional(),
      publicKey: bytes(4_000).optional(),
    }),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensionResults,
  },
  { error: A.passkeyRefused },
);

export const passkeyNameSchema = z
  .string({ error: A.passkeyNameInvalid })
  .trim()
  .min(1, { error: A.passkeyNameInvalid })
  .max(60, { error: A.passkeyNameInvalid });

const challengeId = z.string().meta({ maxLength: 100 });
const credential = z.object({
  id: z.string().meta({ maxLength: 1_400 }),
  type: z.string().meta({ maxLength: 20 }),
  transports: z
    .array(z.string().meta({ maxLength: 20 }))
    .meta({ maxItems: 10 })
    .optional(),
});
const credentials = z.array(credential).meta({ maxItems: 100 });

/** What the browser's `navigator.credentials.create` takes, as JSON. */
export const registrationOptionsSchema = z.object({
  challengeId,
  options: z.object({
    rp: z.object({
      name: z.string().meta({ maxLength: 100 }),
      id: z.string().meta({ maxLength: 253 }).optional(),
    }),
    user: z.object({
      id: z.string().meta({ maxLength: 100 }),
      name: z.string().meta({ maxLength: 254 }),
      displayName: z.string().meta({ maxLength: 100 }),
    }),
    challenge: z.string().meta({ maxLength: 100 }),
    pubKeyCredParams: z
      .array(
        z.object({
          alg: z.number().int().meta(int32(2_147_483_647, -2_147_483_648)),
          type: z.string().meta({ maxLength: 20 }),
        }),
      )
      .meta({ maxItems: 10 }),
    timeout: z.number().int().meta(int32(3_600_000)).optional(),
    excludeCredentials: credentials.optional(),
    authenticatorSelection: z
      .object({
        residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
      })
      .optional(),
    attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
    extensions: z.object({ credProps: z.boolean().optional() }).optional(),
  }),
});

/** What the browser's `navigator.credentials.get` takes, as JSON. */
export const authenticationOptionsSchema = z.object({
  challengeId,
  options: z.object({
    challenge: z.string().meta({ maxLength: 100 }),
    rpId: z.string().meta({ maxLength: 253 }).optional(),
    timeout: z.number().int().meta(int32(3_600_000)).optional(),
    allowCredentials: credentials.optional(),
    userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
  }),
});

/** `POST /api/auth/passkeys/login/options`: for a sign-in's second step, its id. */
export const authenticationOptionsRequestSchema = z.object({
  challengeId: z.string().max(100).optional(),
});

export const passkeyRegistrationSchema = z.object({
  challengeId: z.string({ error: A.signInExpired }).max(100),
  response: attestationSchema,
  name: passkeyNameSchema.optional(),
});

export const passkeySignInSchema = z.object({
  challengeId: z.string({ error: A.signInExpired }).max(100),
  assertion: assertionSchema,
});

export const passkeySchema = z.object({
  id: z.string().meta({ maxLength: 1_400 }),
  name: z.string().meta({ maxLength: 60 }),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  /** Whether the passkey is synced between the owner's devices (a password manager, a cloud). */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({
  passkeys: z.array(passkeySchema).meta({ maxItems: 100 }),
});
export const passkeyAddedSchema = z.object({
  message: z.string().meta({ maxLength: ANSWER_LIMITS.message }),
  passkey: passkeySchema,
});
export const passkeyRenameSchema = z.object({ name: passkeyNameSchema });
export const passkeyParamsSchema = z.object({ passkeyId: z.string().max(1_400) });
