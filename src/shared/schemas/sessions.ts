import { z } from 'zod';
import { timestamp } from './products.js';

/** How many sessions the list shows at most: the most recently used. */
export const SESSIONS_LISTED = 100;

/** One place the account is signed in. */
const deviceSessionSchema = z.object({
  id: z.string().meta({ format: 'uuid', maxLength: 36 }),
  /** The browser and system, as its User-Agent names them ("Firefox 128 on Linux"); null if unknown. */
  device: z.string().meta({ maxLength: 200 }).nullable(),
  /** Where its address is, roughly: a country, "Local network" or "This computer"; null if unknown. */
  place: z.string().meta({ maxLength: 100 }).nullable(),
  createdAt: timestamp,
  lastSeenAt: timestamp,
  /** The session of the request that asks: "this device". */
  current: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;

export const deviceSessionListSchema = z.object({
  sessions: z.array(deviceSessionSchema).meta({ maxItems: SESSIONS_LISTED }),
});

export const sessionParamsSchema = z.object({ sessionId: z.string().max(100) });
