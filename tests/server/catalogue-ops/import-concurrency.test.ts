import { request, type ClientRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { M, T } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { productCount } from '../support/products.js';
import { csvForm } from '../support/server-process.js';

/** Imports one server process runs at once. */
const PROCESS_IMPORTS = 3;

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: { message: string; created?: number };
}

/**
 * An import whose upload has begun and is held open until `finish()`: the import is running on
 * the server meanwhile. However a client spreads imports in parallel, one user gets one at a
 * time and a process a few; the others are told when to come back.
 */
describe('imports running at once', async () => {
  const server = await build();
  const base = new URL(await server.app.listen({ host: '127.0.0.1', port: 0 }));
  const form = await csvForm(
    'name,price,stock,description\nLamp,1.00,2,A lamp\nRug,2.50,1,A rug\n',
  );

  function startImport(user: SignedIn) {
    let req!: ClientRequest;
    const answer = new Promise<Answer>((resolve, reject) => {
      req = request(
        {
          host: base.hostname,
          port: base.port,
          method: 'POST',
          path: '/api/products/import',
          headers: {
            ...user.headers,
            ...form.headers,
            'content-length': String(form.body.length),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }),
          );
        },
      );
      req.on('error', reject);
    });
    req.write(form.body.subarray(0, 100));
    return { answer, finish: () => req.end(form.body.subarray(100)) };
  }

  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

  const expectRetryLater = (answer: Answer, status: number, message: string) => {
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ message });
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('runs one import per user: others sent meanwhile get 429 with Retry-After', async () => {
    const user = await signIn(server);
    const first = startImport(user);
    await settle();
    const rest = Array.from({ length: 5 }, () => startImport(user));
    for (const other of rest) other.finish();
    for (const other of rest) expectRetryLater(await other.answer, 429, M.importRunning);
    first.finish();
    const done = await first.answer;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ message: T.imported(2), created: 2 });
    // Its turn over, the user may import again.
    const again = startImport(user);
    again.finish();
    expect((await again.answer).status).toBe(200);
  });

  it(`runs ${PROCESS_IMPORTS} imports per process: more users at once get 503 with Retry-After`, async () => {
    const users: SignedIn[] = [];
    for (let i = 0; i < PROCESS_IMPORTS + 3; i += 1) users.push(await signIn(server));
    const before = await productCount(server);
    const running = users.slice(0, PROCESS_IMPORTS).map((user) => startImport(user));
    await settle();
    const turnedAway = users.slice(PROCESS_IMPORTS).map((user) => startImport(user));
    for (const late of turnedAway) late.finish();
    for (const late of turnedAway) expectRetryLater(await late.answer, 503, M.importsBusy);
    for (const early of running) early.finish();
    for (const early of running) expect((await early.answer).status).toBe(200);
    expect(await productCount(server)).toBe(before + 2 * PROCESS_IMPORTS);
  });
});
