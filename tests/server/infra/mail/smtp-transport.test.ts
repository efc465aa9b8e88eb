import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { SmtpTransport } from '../../../../src/server/infra/mail/smtp-transport.js';

/** A loopback server that accepts connections and never says a word (no SMTP greeting). */
async function silentServer() {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}

it('gives up on a mail server that never greets after its own 10 s, not nodemailer’s 30 s', async () => {
  const port = await silentServer();
  const transport = new SmtpTransport(
    `smtp://127.0.0.1:${port}`,
    'Stockroom <no-reply@localhost>',
    'http://localhost:3000',
  );
  afterAll(() => transport.close());

  const started = Date.now();
  const sent = transport.send({
    id: 'greeting-timeout',
    to: 'someone@example.com',
    subject: 'Hello',
    text: 'Hello',
    html: '<p>Hello</p>',
  });
  await expect(sent).rejects.toThrow(/greeting/i);
  const waited = Date.now() - started;
  expect(waited).toBeGreaterThanOrEqual(9_000);
  expect(waited).toBeLessThan(15_000);
}, 40_000);
