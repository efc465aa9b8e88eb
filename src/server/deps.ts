import type { Config } from './config.js';
import type { DatabaseHandle, DB } from './db/handle.js';
import type { ImageStorage } from './images/storage.js';
import type { Clock } from './lib/clock.js';
import type { Outbox } from './mail/outbox.js';

/** Per-IP limits for the account endpoints: requests per window. Tests may loosen or tighten them. */
export interface RateLimits {
  windowMs: number;
  /** Endpoints that send mail or check a password or code. */
  sensitive: number;
  /** Reads and cheap writes of a signed-in user. */
  general: number;
}

export const defaultRateLimits: RateLimits = { windowMs: 60_000, sensitive: 20, general: 300 };

/** Everything a route needs, built once in app.ts and handed down: no module-level singletons. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  db: DB;
  clock: Clock;
  outbox: Outbox;
  rateLimits: RateLimits;
  /** Uploaded product images (local disk under DATA_DIR now; S3-compatible later). */
  images: ImageStorage;
}
