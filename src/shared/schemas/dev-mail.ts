import { z } from 'zod';

/** One mail of the development mailbox (GET /api/dev/mails): never served in production. */
export const devMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  text: z.string(),
  sentAt: z.string(),
});
export type DevMail = z.infer<typeof devMailSchema>;
export const devMailboxResponseSchema = z.object({ mails: z.array(devMailSchema) });
