import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';

/** Every line the server logs, as text: what an operator's log store would keep. */
function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, text: () => lines.join('\n'), lines };
}

const PASSWORD = 'first-Password-1';

/** Signs up `email` and delivers the mail: the code goes to the local mailbox. */
async function signUpAndDeliver(server: Awaited<ReturnType<typeof build>>, email: string) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { name: 'Logged User', email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(res.statusCode).toBe(201);
  await server.app.outbox.deliverDue();
  const mail = (await server.app.inject({ method: 'GET', url: '/api/dev/mails' })).json()
    .mails[0] as { text: string };
  return /Your code: (\d{6})/.exec(mail.text)![1]!;
}

describe('request logs', async () => {
  const log = logCapture();
  const server = await build({ env: { LOG_LEVEL: 'info' }, logStream: log.stream });

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
  const log = logCapture();
  const server = await build({
    env: { NODE_ENV: 'development', LOG_LEVEL: 'info' },
    logStream: log.stream,
  });

  it('the text of each local mail is printed for the developer', async () => {
    const code = await signUpAndDeliver(server, 'dev@example.com');
    expect(log.text()).toContain(code);
  });
});
