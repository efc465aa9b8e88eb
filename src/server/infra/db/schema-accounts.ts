import type { Generated } from 'kysely';

// The accounts' tables: users, their sessions and codes, and the budgets of wrong codes.
// schema.ts says how times, booleans and money are stored.

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  confirmed: number;
  /** An address the owner asked to move to, until its code confirms it (migration 013). */
  pending_email: Generated<string | null>;
  /** Whether the user gets the daily low-stock digest, 0/1 (migration 020). */
  low_stock_digest: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** `email`: the code mailed to a new address, which confirms the change to it. */
export type CodePurpose = 'confirm' | 'reset' | 'email';
/** What an account's budget of wrong tries counts apart: each code purpose, and second factors. */
export type GuessPurpose = CodePurpose | 'second-factor';
/**
 * What an address's mail budget counts apart: each code purpose, invitations to catalogues, and
 * purchase orders sent to suppliers.
 */
export type MailBudget = CodePurpose | 'invitation' | 'purchase_order';

export interface CodesTable {
  id: string;
  user_id: string;
  purpose: CodePurpose;
  code_hash: string;
  expires_at: number;
  failed_attempts: number;
  created_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  /** The browser's User-Agent at sign-in, cut to 512 characters (migration 027). */
  user_agent: Generated<string | null>;
  /** The client's address at sign-in or at the last recorded use. */
  ip: Generated<string | null>;
  /** The last recorded use, a few minutes at a time; null until the first (migration 027). */
  last_seen_at: Generated<number | null>;
}

/** Failed code attempts that carried no e-mail: the global bare-code budget counts these. */
export interface CodeFailuresTable {
  id: Generated<number>;
  purpose: CodePurpose;
  at: number;
  /** How many live codes of the purpose the attempt was tried against (at least 1; migration 006). */
  weight: Generated<number>;
}

/** Wrong tries at an account's codes, with or without the e-mail: its 24-hour budget counts these. */
export interface AccountCodeFailuresTable {
  id: Generated<number>;
  user_id: string;
  purpose: GuessPurpose;
  at: number;
}

/** One row per code budget, written first by each check of it so that checks run one at a time. */
export interface CodeBudgetLocksTable {
  scope: string;
}

/** An account's authenticator app (migration 023). */
export interface UserTotpTable {
  user_id: string;
  /** The secret, sealed with a key derived from APP_SECRET (lib/sealed.ts). */
  secret_sealed: string;
  /** Null while set-up waits for the first code. */
  confirmed_at: number | null;
  /** The 30-second step of the last code accepted: a code is never accepted twice. */
  last_step: Generated<number>;
  created_at: number;
}

/** One-time recovery codes, as keyed hashes. */
export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** WebAuthn credentials: a second factor, or a sign-in without a password. */
export interface PasskeysTable {
  /** The credential's id, base64url. */
  id: string;
  user_id: string;
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** A JSON array of the authenticator's transports ("internal", "hybrid", "usb", …). */
  transports: string;
  device_type: string;
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}

export type SignInChallengePurpose = 'second-factor' | 'passkey-sign-in' | 'passkey-registration';

/** What a sign-in or a passkey registration in progress waits for, by the hash of its id. */
export interface SignInChallengesTable {
  id_hash: string;
  purpose: SignInChallengePurpose;
  /** The account, once known: the password was right, or the registration is its own. */
  user_id: string | null;
  /** The WebAuthn challenge a passkey must sign, base64url. */
  webauthn_challenge: string | null;
  failed_attempts: Generated<number>;
  expires_at: number;
}

/** One thing a user holds open on some instance, until it ends or `expires_at` passes. */
export interface UserLeasesTable {
  id: string;
  kind: string;
  user_id: string;
  expires_at: number;
}
