/** Per-IP limits for the account endpoints: requests per window. Tests may loosen or tighten them. */
export interface RateLimits {
  windowMs: number;
  /** Endpoints that send mail or check a password or code. */
  sensitive: number;
  /** Reads and cheap writes of a signed-in user. */
  general: number;
}

export const defaultRateLimits: RateLimits = { windowMs: 60_000, sensitive: 20, general: 300 };
