import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_MAILBOX_META } from '../../../src/shared/constants.js';
import { M } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { tempDir } from '../support/temp-dirs.js';

const SECRET = 'production-secret-that-is-at-least-32-characters';

/** The mailbox API as a client at `remoteAddress` asking for `host` sees it. */
const mailbox = (
  server: Awaited<ReturnType<typeof build>>,
  remoteAddress: string,
  host: string,
  headers: Record<string, string> = {},
) =>
  server.app.inject({
    method: 'GET',
    url: '/api/dev/mails',
    remoteAddress,
    headers: { host, ...headers },
  });

/** A built client of one page: the fallback React Router writes for the paths it routes. */
async function builtClient(): Promise<string> {
  const dir = await tempDir('stockroom-client-');
  await writeFile(
    path.join(dir, '__spa-fallback.html'),
    '<!doctype html><html><head><title>app</title></head><body></body></html>',
  );
  return dir;
}

/** The mailbox page as a client at `remoteAddress` asking for `host` sees it. */
const mailboxPage = (
  server: Awaited<ReturnType<typeof build>>,
  remoteAddress: string,
  host: string,
  url = '/dev/mailbox',
  headers: Record<string, string> = {},
) => server.app.inject({ method: 'GET', url, remoteAddress, headers: { host, ...headers } });

describe('the development mailbox', async () => {
  const server = await build();
  // Something worth stealing: a code mail in the mailbox.
  await server.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      name: 'Mailbox Owner',
      email: 'owner@example.com',
      password: 'first-Password-1',
      confirmPassword: 'first-Password-1',
    },
  });
  await server.app.outbox.deliverDue();

  it.each([
    ['127.0.0.1', 'localhost'],
    ['127.0.0.1', 'localhost:3000'],
    ['127.0.0.1', 'LOCALHOST:5173'],
    ['127.0.0.1', '127.0.0.1:3000'],
    ['127.8.9.10', '127.0.0.1'],
    ['::1', '[::1]:3000'],
    ['::1', '[::1]'],
    ['::ffff:127.0.0.1', 'localhost:3000'],
  ])('answers a loopback client (%s) asking for %s', async (remoteAddress, host) => {
    const res = await mailbox(server, remoteAddress, host);
    expect(res.statusCode).toBe(200);
    expect(res.json().mails[0].text).toMatch(/\d{6}/);
  });

  it.each([
    ['192.168.1.20', 'localhost:3000'],
    ['10.0.0.1', '127.0.0.1:3000'],
    ['203.0.113.9', 'localhost'],
    ['::ffff:192.168.1.20', 'localhost'],
    ['128.0.0.1', 'localhost'],
  ])('is a 404 for a client at %s, whatever the Host', async (remoteAddress, host) => {
    const res = await mailbox(server, remoteAddress, host);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: M.notFound });
  });

  it.each([
    // DNS rebinding: a page of attacker.example resolves its name to 127.0.0.1.
    'attacker.example',
    'attacker.example:3000',
    'localhost.attacker.example',
    '127.0.0.1.nip.io:3000',
    'localhost:3000@attacker.example',
    '[::1].attacker.example',
    'localhost:abc',
  ])('is a 404 from loopback when Host is %s', async (host) => {
    const res = await mailbox(server, '127.0.0.1', host);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: M.notFound });
  });

  it('is a 404 for a request a proxy relayed from elsewhere', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const value = header === 'forwarded' ? 'for=203.0.113.9' : '203.0.113.9';
      const res = await mailbox(server, '127.0.0.1', 'localhost', { [header]: value });
      expect(res.statusCode, header).toBe(404);
    }
  });

  it('is answered to a real loopback connection', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const local = await fetch(`http://localhost:${port}/api/dev/mails`);
    expect(local.status).toBe(200);
    // The same socket address, but a Host that is not loopback (DNS rebinding).
    const rebound = await new Promise<number>((resolve, reject) => {
      httpRequest(
        { host: '127.0.0.1', port, path: '/api/dev/mails', headers: { host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(rebound).toBe(404);
  });
});

describe('the development mailbox page', async () => {
  const server = await build({ clientDir: await builtClient() });

  it('is served to the developer’s browser, which the page tells of the mailbox', async () => {
    for (const [remoteAddress, host] of [
      ['127.0.0.1', 'localhost:3000'],
      ['::1', '[::1]:3000'],
    ] as const) {
      const res = await mailboxPage(server, remoteAddress, host);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain(`<meta name="${DEV_MAILBOX_META}" content="">`);
    }
  });

  it.each([
    ['192.168.1.20', 'localhost:3000', {}],
    ['::ffff:203.0.113.9', 'localhost', {}],
    ['127.0.0.1', 'evil.com', {}],
    ['127.0.0.1', 'localhost.evil.com:3000', {}],
    ['127.0.0.1', 'localhost', { 'x-forwarded-for': '203.0.113.9' }],
  ])('is the API’s 404 for a client at %s asking for %s', async (remoteAddress, host, headers) => {
    for (const url of ['/dev/mailbox', '/dev/mailbox/', '/DEV/Mailbox', '/dev/%6dailbox?x=1']) {
      const res = await mailboxPage(server, remoteAddress, host, url, headers);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: M.notFound });
    }
  });

  it('leaves the mailbox out of the pages of anyone who may not read it', async () => {
    for (const url of ['/', '/auth/login', '/profile']) {
      const res = await mailboxPage(server, '203.0.113.9', 'localhost', url);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(DEV_MAILBOX_META);
      const rebound = await mailboxPage(server, '127.0.0.1', 'evil.com', url);
      expect(rebound.body).not.toContain(DEV_MAILBOX_META);
      const local = await mailboxPage(server, '127.0.0.1', 'localhost:3000', url);
      expect(local.body).toContain(DEV_MAILBOX_META);
    }
  });
});

describe('the development mailbox page of a server that sends mail over SMTP', async () => {
  const server = await build({
    clientDir: await builtClient(),
    env: { SMTP_URL: 'smtp://127.0.0.1:2525' },
  });

  it('does not exist, even for loopback', async () => {
    const res = await mailboxPage(server, '127.0.0.1', 'localhost:3000');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: M.notFound });
  });
});

describe('the development mailbox behind TRUST_PROXY', async () => {
  const server = await build({ env: { TRUST_PROXY: '1' } });

  it('does not believe X-Forwarded-For: 127.0.0.1 from a remote client', async () => {
    const res = await mailbox(server, '203.0.113.9', 'localhost', {
      'x-forwarded-for': '127.0.0.1',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('the development mailbox in production', async () => {
  const server = await build({
    clientDir: await builtClient(),
    env: { NODE_ENV: 'production', APP_SECRET: SECRET },
  });

  it('does not exist, even for loopback', async () => {
    const res = await mailbox(server, '127.0.0.1', 'localhost:3000');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: M.notFound });
  });

  it('has no page either, and no page tells of it', async () => {
    const res = await mailboxPage(server, '127.0.0.1', 'localhost:3000');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: M.notFound });
    const home = await mailboxPage(server, '127.0.0.1', 'localhost:3000', '/');
    expect(home.statusCode).toBe(200);
    expect(home.body).not.toContain(DEV_MAILBOX_META);
  });
});
