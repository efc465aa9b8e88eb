/** Authenticator codes: RFC 6238 as every authenticator app reads it. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Recovery codes made at once; each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code as shown: two groups of five letters and digits ("k7m2p-x9q4t"). */
export const RECOVERY_CODE_PATTERN = '^[a-z2-9]{5}-[a-z2-9]{5}$';
/** How long the second step of a sign-in, or a passkey's ceremony, may take. */
export const SIGN_IN_CHALLENGE_MINUTES = 5;
