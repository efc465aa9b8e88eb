import { connect, type AddressInfo, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { jpeg, multipart } from '../support/images.js';
import { validFields } from '../support/products.js';
import { signIn } from '../support/accounts.js';

/** Small limits so the tests take seconds: a request 1 s, an upload 3 s, an idle connection 0.5 s. */
const LIMITS = { request: 1_000, upload: 3_000, keepAlive: 500 };

/** A raw TCP connection: what a slow client does, byte by byte. */
interface Connection {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
  isOpen: () => boolean;
}

function open(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1' });
    let text = '';
    let open = true;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    // The server may reset rather than close: both end the connection.
    socket.on('error', () => {});
    const closed = new Promise<number>((done) =>
      socket.once('close', () => {
        open = false;
        done(Date.now() - started);
      }),
    );
    socket.once('connect', () =>
      resolve({ socket, received: () => text, closed, isOpen: () => open }),
    );
    socket.once('error', reject);
  });
}

/** Writes `body` a few bytes at a time, `every` ms apart, while the connection stays open. */
async function dribble(connection: Connection, body: Buffer, chunks: number, every: number) {
  const size = Math.ceil(body.length / chunks);
  for (let offset = 0; offset < body.length && connection.isOpen(); offset += size) {
    connection.socket.write(body.subarray(offset, offset + size));
    await sleep(every);
  }
}

const head = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);

/** The head of a JSON login request whose body is `length` bytes. */
const loginHead = (length: number, extraHeaders: string[] = []) =>
  head([
    'POST /api/auth/login HTTP/1.1',
    'Host: localhost',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    ...extraHeaders,
  ]);

/** The status of the first answer on the connection, if one came before it closed. */
const statusOf = (text: string) => /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];

describe('requests that do not arrive in time are cut off', { timeout: 30_000 }, async () => {
  const server = await build({ timeouts: LIMITS });
  const user = await signIn(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;

  /** A connection that has sent the head of a product upload with a small photo, not its body. */
  const startUpload = async (extraHeaders: string[] = []) => {
    const body = await multipart(validFields, { data: await jpeg(64, 48) });
    const connection = await open(port);
    connection.socket.write(
      head([
        'POST /api/products HTTP/1.1',
        'Host: localhost',
        `Authorization: Bearer ${user.token}`,
        `Content-Type: ${body.headers['content-type']}`,
        `Content-Length: ${body.payload.length}`,
        ...extraHeaders,
      ]),
    );
    return { body, connection };
  };

  it('a JSON body at one byte per 200 ms is cut off after the request limit', async () => {
    const connection = await open(port);
    connection.socket.write(loginHead(200));
    void dribble(connection, Buffer.from(`{"email":"${'a'.repeat(190)}`), 190, 200);
    const closedAfter = await connection.closed;
    expect(closedAfter).toBeGreaterThanOrEqual(LIMITS.request - 100);
    expect(closedAfter).toBeLessThan(LIMITS.request + 1_500);
    const status = statusOf(connection.received());
    if (status !== undefined) expect(status).toBe('408');
  });

  it('headers at one byte per 200 ms are cut off too', async () => {
    const connection = await open(port);
    void dribble(
      connection,
      head(['GET /api/health HTTP/1.1', 'Host: localhost', `X-Slow: ${'a'.repeat(100)}`]),
      150,
      200,
    );
    const closedAfter = await connection.closed;
    expect(closedAfter).toBeLessThan(LIMITS.request + 1_500);
    expect(statusOf(connection.received()) ?? '408').toBe('408');
  });

  it('an upload may take longer than a JSON request, but not forever', async () => {
    const { body, connection } = await startUpload();
    // Never finishes: a byte every 200 ms.
    void dribble(connection, body.payload, body.payload.length, 200);
    await sleep(LIMITS.request + 800);
    expect(connection.isOpen()).toBe(true);
    const closedAfter = await connection.closed;
    expect(closedAfter).toBeGreaterThanOrEqual(LIMITS.upload - 100);
    expect(closedAfter).toBeLessThan(LIMITS.upload + 1_500);
    expect(statusOf(connection.received()) ?? '408').toBe('408');
  });

  it('a slow upload that arrives within the upload limit is created', async () => {
    const { body, connection } = await startUpload(['Connection: close']);
    // Ten pieces over two seconds: twice the request limit, within the upload limit.
    await dribble(connection, body.payload, 10, 200);
    await connection.closed;
    expect(statusOf(connection.received())).toBe('201');
  });

  it('a JSON body that arrives within the limit is answered', async () => {
    const body = Buffer.from(JSON.stringify({ email: user.email, password: user.password }));
    const connection = await open(port);
    connection.socket.write(loginHead(body.length, ['Connection: close']));
    await dribble(connection, body, 3, 150);
    await connection.closed;
    expect(statusOf(connection.received())).toBe('200');
  });

  it('a normal request is answered, and the idle keep-alive connection is closed', async () => {
    const connection = await open(port);
    connection.socket.write(head(['GET /api/health HTTP/1.1', 'Host: localhost']));
    await expect.poll(() => statusOf(connection.received())).toBe('200');
    const answeredAt = Date.now();
    await connection.closed;
    const idle = Date.now() - answeredAt;
    expect(idle).toBeGreaterThanOrEqual(LIMITS.keepAlive - 100);
    expect(idle).toBeLessThan(LIMITS.keepAlive + 1_500);
  });
});
