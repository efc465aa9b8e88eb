import { z } from 'zod';
import { REORDER_MESSAGES } from '../reorder.js';
import { ANSWER_LIMITS } from './common.js';

/** The signed-in user's preferences, kept apart from the spec's current-user answer. */
export const preferencesSchema = z.object({
  /** Whether the user gets the daily e-mail of the products that reached their reorder point. */
  lowStockDigest: z.boolean(),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const preferencesResponseSchema = z.object({ preferences: preferencesSchema });

/** `PATCH /api/auth/preferences`: the preferences to change; those left out stay as they are. */
export const preferencesUpdateSchema = z.object({
  lowStockDigest: z.boolean({ error: REORDER_MESSAGES.lowStockDigestInvalid }).optional(),
});
export type PreferencesUpdate = z.input<typeof preferencesUpdateSchema>;

export const preferencesSavedSchema = z.object({
  message: z.string().meta({ maxLength: ANSWER_LIMITS.message }),
  preferences: preferencesSchema,
});
