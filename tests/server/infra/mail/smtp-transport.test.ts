import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, it, onTestFinished, vi } from 'vitest';
import { SmtpTransport } from '../../../../src/server/infra/mail/smtp-transport.js';

/** A loopback server that accepts connections and never says a word (no SMTP greeting). */
async function silentServer() {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { port: (server.address() as AddressInfo).port, connections: () => sockets.length };
}

it('gives up on a mail server that never greets after its own 10 s, not nodemailer’s 30 s', async () => {
  const { port, connections } = await silentServer();
  const transport = new SmtpTransport(
    `smtp://127.0.0.1:${port}`,
    'Stockroom <no-reply@localhost>',
    'http://localhost:3000',
  );
  onTestFinished(() => transport.close());

  // nodemailer times the greeting with setTimeout: a fake clock passes the seconds at once, while
  // the socket is real.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
  try {
    let outcome: unknown;
    const sent = transport
      .send({
        id: 'greeting-timeout',
        to: 'someone@example.com',
        subject: 'Hello',
        text: 'Hello',
        html: '<p>Hello</p>',
      })
      .then(
        () => (outcome = 'sent'),
        (error: unknown) => (outcome = error),
      );
    await expect.poll(connections).toBe(1);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2_000);
    await sent;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toMatch(/greeting/i);
  } finally {
    vi.useRealTimers();
  }
});
