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
/** What an address's mail budget counts apart: each code purpose, and invitations to catalogues. */
export type MailBudget = CodePurpose | 'invitation';

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
  purpose: CodePurpose;
  at: number;
}

/** One row per code budget, written first by each check of it so that checks run one at a time. */
export interface CodeBudgetLocksTable {
  scope: string;
}
