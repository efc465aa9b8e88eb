/** Per-IP limits for the account endpoints: requests per window. Tests may loosen or tighten them. */
export interface RateLimits {
  windowMs: number;
  /** Endpoints that send mail or check a password or code. */
  sensitive: number;
  /** Reads and cheap writes of a signed-in user. */
  general: number;
}

export const defaultRateLimits: RateLimits = { windowMs: 60_000, sensitive: 20, general: 300 };

/**
 * The costly catalogue operations (CSV import and export, bulk delete: up to 50,000 rows or 10 MB
 * each) get a tenth of the general budget: 30 a minute per IP by default, never fewer than one.
 */
export const bulkLimit = (limits: RateLimits) => Math.max(1, Math.floor(limits.general / 10));
