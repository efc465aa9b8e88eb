import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestServer } from './build.js';

export interface SignedIn {
  email: string;
  token: string;
  /** Authorization header for inject(). */
  headers: { authorization: string };
}

let counter = 0;

/** The code in the newest mail of the local mailbox (tests run without SMTP_URL). */
async function latestCode(server: TestServer, email: string): Promise<string> {
  await server.app.deps.outbox.deliverDue();
  const dir = path.join(server.dataDir, 'mail');
  const mails = await Promise.all(
    (await readdir(dir))
      .filter((file) => file.endsWith('.json'))
      .map(async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8'))),
  );
  const newest = mails
    .filter((mail) => mail.to === email)
    .sort((a, b) => String(a.sentAt).localeCompare(String(b.sentAt)))
    .at(-1);
  const code = /Your code: (\d{6})/.exec(newest?.text ?? '')?.[1];
  if (!code) throw new Error(`No code was mailed to ${email}`);
  return code;
}

/** Signs up, confirms through the mailed code and logs in: a ready bearer token. */
export async function signIn(server: TestServer, name = 'Test User'): Promise<SignedIn> {
  counter += 1;
  const email = `user${counter}-${Date.now()}@example.com`;
  const password = 'correct horse 42';
  const signup = await server.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { name, email, password, confirmPassword: password },
  });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.body}`);
  const confirm = await server.app.inject({
    method: 'POST',
    url: '/api/auth/confirm-account',
    payload: { token: await latestCode(server, email), email },
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm failed: ${confirm.body}`);
  const login = await server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const { token } = login.json() as { token: string };
  return { email, token, headers: { authorization: `Bearer ${token}` } };
}
