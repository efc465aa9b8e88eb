import { keepOnSuccess } from '../../../shared/keep-on-success.js';

/** The native argon2 addon (~10 MB resident) is loaded by the first sign-up, login or reset. */
const argon2 = keepOnSuccess(() => import('@node-rs/argon2'));

// argon2id (the library's default algorithm) with OWASP's minimum memory cost. The hashing runs on
// libuv's thread pool, so it never blocks the event loop.
const PRODUCTION_COST = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
// Under NODE_ENV=test only: the suites sign up thousands of accounts, and the cost of a hash is
// not what they check. A hash records its own cost, so verifying works whatever made it.
const TEST_COST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

const cost = () => (process.env.NODE_ENV === 'test' ? TEST_COST : PRODUCTION_COST);

export const hashPassword = async (password: string) => (await argon2()).hash(password, cost());

/**
 * Whether `password` matches. A hash that cannot be read is not a wrong password but a fault of
 * the server (every stored hash was made by hashPassword): it throws, so the request answers 500
 * and the error is logged.
 */
export const verifyPassword = async (passwordHash: string, password: string): Promise<boolean> =>
  (await argon2()).verify(passwordHash, password);

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check when there is no account, so a login's response time does
 * not tell whether the e-mail exists.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-0');
  await verifyPassword(await dummyHash, password);
  return false;
}
