import type { MailFlowDeps } from './code-requests.js';
import { hashPassword } from './passwords.js';
import { insertUserIfNew } from './users.js';

export interface SignUp {
  name: string;
  email: string;
  password: string;
}

/**
 * Sign-up. The password is hashed first, then one transaction inserts the account
 * unless the address already has one, and requests the sign-up mail: the same work for every
 * address, so neither the answer nor its time tells whether it was registered. An existing
 * account, confirmed or not, is left as it was: its first password and name stay. At send time
 * the worker mails a code to an unconfirmed account and "you already have an account" to a
 * confirmed one, budget permitting (code-mails.ts).
 */
export async function signUp(deps: MailFlowDeps, input: SignUp): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction().execute(async (trx) => {
    await insertUserIfNew(trx, { ...input, passwordHash }, deps.clock.now());
    await deps.outbox.request(trx, input.email, 'signup');
  });
  deps.outbox.wake();
}
