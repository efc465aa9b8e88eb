import { describe, expect, it } from 'vitest';
import { accounts, PASSWORD } from '../support/accounts.js';
import type { TestServer } from '../support/build.js';
import { buildLogged } from '../support/logs.js';

/** Signs `email` up and delivers the mail: the code goes to the local mailbox. */
async function signUpAndDeliver(server: TestServer, email: string) {
  const steps = accounts(server);
  await steps.signUp({ email });
  return steps.codeFor(email);
}

describe('request logs', async () => {
  const { server, log } = await buildLogged();

  it('never carry the code of reset-password/{code}', async () => {
    const codes = ['493817', '582046'];
    await server.app.inject({
      method: 'POST',
      url: `/api/auth/reset-password/${codes[0]}`,
      payload: { password: PASSWORD, confirmPassword: PASSWORD, email: 'nobody@example.com' },
    });
    // Spelled otherwise, with a query, or to a route that does not exist: still no code.
    await server.app.inject({ method: 'GET', url: `/api/auth/Reset-Password/${codes[1]}?x=1` });
    await server.app.inject({ method: 'POST', url: `/api/auth/reset%2Dpassword/${codes[1]}` });
    const text = log.text();
    expect(text).toContain('reset-password/[redacted]');
    expect(text).toMatch(/incoming request/);
    for (const code of codes) expect(text).not.toContain(code);
  });

  it('keep the rest of the URL', async () => {
    await server.app.inject({ method: 'GET', url: '/api/health?probe=kept' });
    expect(log.text()).toContain('/api/health?probe=kept');
  });

  it('do not print the text of mails outside development', async () => {
    const code = await signUpAndDeliver(server, 'quiet@example.com');
    expect(log.text()).not.toContain(code);
  });
});

describe('in development', async () => {
  const { server, log } = await buildLogged({ NODE_ENV: 'development' });

  it('the text of each local mail is printed for the developer', async () => {
    const code = await signUpAndDeliver(server, 'dev@example.com');
    expect(log.text()).toContain(code);
  });
});
