import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import type { Webhook } from '../../../src/shared/schemas/webhooks/webhooks.js';
import type { SignedIn } from '../support/accounts.js';
import type { TestServer } from '../support/build.js';
import { api } from '../catalogues/support.js';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/**
 * A webhook receiver on loopback: it keeps every request and answers with the status `answer`
 * gives for the request's number (1, 2, …), 204 unless told.
 */
export async function receiver(answer: (count: number) => number = () => 204) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(answer(received.length)).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { received, url: `http://127.0.0.1:${port}/hook`, port };
}

export const webhooksUrl = (catalogueId: string) => `/api/catalogues/${catalogueId}/webhooks`;

/** Registers an endpoint; fails the test unless it was created. */
export async function addWebhook(
  server: TestServer,
  user: SignedIn,
  catalogueId: string,
  url: string,
  events: string[] = ['product.created'],
) {
  const res = await api(server, user, 'POST', webhooksUrl(catalogueId), { url, events });
  if (res.statusCode !== 201) throw new Error(`add failed: ${res.statusCode} ${res.body}`);
  return res.json() as { webhook: Webhook; secret: string };
}
