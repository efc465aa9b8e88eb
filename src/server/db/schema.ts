import type { Generated } from 'kysely';

/**
 * Table types. Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite): one
 * representation that compares and sorts the same on both engines. Booleans are 0/1 integers for
 * the same reason. Money is integer cents.
 */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  confirmed: number;
  /** Bumped with every write to the user's products (migration 003). */
  catalogue_version: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type CodePurpose = 'confirm' | 'reset';

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

export interface ProductsTable {
  id: string;
  owner_id: string;
  name: string;
  /** The name folded for sorting (lower case, no accents). */
  name_key: string;
  description: string;
  /** Name and description folded for search, see migration 002. */
  search_key: string;
  price_cents: number;
  stock: number;
  active: number;
  image_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface OutboxTable {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
  next_attempt_at: number;
  locked_until: number | null;
  sent_at: number | null;
  last_error: string | null;
  created_at: number;
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

export interface Database {
  users: UsersTable;
  codes: CodesTable;
  sessions: SessionsTable;
  products: ProductsTable;
  outbox: OutboxTable;
  code_failures: CodeFailuresTable;
  account_code_failures: AccountCodeFailuresTable;
  code_budget_locks: CodeBudgetLocksTable;
}
