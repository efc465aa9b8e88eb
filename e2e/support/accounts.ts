import { randomBytes } from 'node:crypto';

export interface Account {
  name: string;
  email: string;
  password: string;
}

let counter = 0;

/** Fresh credentials nobody has used: a unique e-mail per call, in every worker. */
export function newAccount(label = 'user'): Account {
  const unique = `${Date.now()}-${process.pid}-${++counter}-${randomBytes(3).toString('hex')}`;
  return {
    name: `Tester ${randomBytes(2).toString('hex')}`,
    email: `${label}-${unique}@example.test`,
    password: `Secret-${randomBytes(4).toString('hex')}1`,
  };
}
