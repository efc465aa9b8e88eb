import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from '../../../src/server/features/accounts/passwords.js';

/** The cost an argon2 hash records: `$argon2id$v=19$m=…,t=…,p=…$salt$hash`. */
const costOf = (passwordHash: string) =>
  /^\$argon2id\$v=19\$(m=\d+,t=\d+,p=\d+)\$/.exec(passwordHash)?.[1];

describe('password hashing cost', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each(['production', 'development', undefined])(
    "hashes at OWASP's argon2id minimum outside tests (NODE_ENV=%s)",
    async (nodeEnv) => {
      vi.stubEnv('NODE_ENV', nodeEnv);
      const passwordHash = await hashPassword('Secret123');
      expect(costOf(passwordHash)).toBe('m=19456,t=2,p=1');
      expect(await verifyPassword(passwordHash, 'Secret123')).toBe(true);
    },
  );

  it('hashes cheaply under NODE_ENV=test, and either hash verifies under either', async () => {
    vi.stubEnv('NODE_ENV', 'test');
    const cheap = await hashPassword('Secret123');
    expect(costOf(cheap)).toBe('m=1024,t=1,p=1');
    vi.stubEnv('NODE_ENV', 'production');
    const costly = await hashPassword('Secret123');
    expect(await verifyPassword(cheap, 'Secret123')).toBe(true);
    vi.stubEnv('NODE_ENV', 'test');
    expect(await verifyPassword(costly, 'Secret123')).toBe(true);
    expect(await verifyPassword(costly, 'Secret124')).toBe(false);
  });
});
