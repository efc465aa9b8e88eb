import { z } from 'zod';
import { A } from '../account-messages.js';

/** `DELETE /api/auth/user`: the password, and a code when two-factor sign-in is on. */
export const deleteAccountSchema = z.object({
  password: z.string({ error: A.passwordRequired }).min(1, { error: A.passwordRequired }).max(128),
  code: z.string().max(64).optional(),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
