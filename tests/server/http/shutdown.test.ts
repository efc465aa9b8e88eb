import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { DRAIN_MS } from '../../../src/server/http/graceful-close.js';
import { freshPostgresDatabase } from '../support/build.js';
import { freePort, startEntry, waitForOk, type Entry } from '../support/processes.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A client of its own on one TCP connection, which it never closes itself (keep-alive). */
class Connection {
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  /** Resolves when the server closes the connection. */
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    void this.closed.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(port: number): Promise<Connection> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new Connection(socket);
  }

  write(text: string) {
    this.socket.write(text);
  }

  get isClosed() {
    return this.socket.destroyed || this.socket.readableEnded;
  }

  /** The next whole response (by its Content-Length); fails if the connection closes first. */
  async response(timeoutMs = 5_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.received.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine = '', ...lines] = this.received.subarray(0, end).toString().split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (this.received.length >= end + 4 + length) {
          const body = this.received.subarray(end + 4, end + 4 + length).toString();
          this.received = this.received.subarray(end + 4 + length);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (this.socket.destroyed) throw new Error('the connection closed before a response');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no response in time');
      await Promise.race([new Promise<void>((wake) => this.waiters.push(wake)), sleep(left)]);
    }
  }

  destroy() {
    this.socket.destroy();
  }
}

/** Whether a new connection to the port is refused (the server stopped listening). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, sleep(ms).then(() => 'timed out' as const)]);

/**
 * SIGTERM while clients hold keep-alive connections: one with a request in flight (its body still
 * arriving), one that has begun sending a request, one idle. The server must answer what is in
 * flight, tell those clients it closes the connection, close the idle one itself, and exit 0
 * promptly with its database closed; it must not wait for clients to hang up.
 */
describe('graceful shutdown of the real server entry', { timeout: 60_000 }, () => {
  const dirs: string[] = [];
  const entries: Entry[] = [];
  const connections: Connection[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const connection of connections) connection.destroy();
    for (const entry of entries) if (entry.child.exitCode === null) entry.child.kill('SIGKILL');
    await Promise.all(entries.map((entry) => entry.exited));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    for (const drop of drops) await drop();
  });

  /** The real entry on a fresh database, answering /api/ready. */
  async function start() {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-shutdown-'));
    dirs.push(dataDir);
    const postgres = process.env.TEST_DATABASE_URL
      ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
    if (postgres) drops.push(postgres.drop);
    const port = await freePort();
    const entry = startEntry({
      PORT: String(port),
      DATA_DIR: dataDir,
      APP_SECRET: 'shutdown-test-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'warn',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    });
    entries.push(entry);
    await waitForOk(`http://127.0.0.1:${port}/api/ready`, 45_000, entry);
    /** SQLite removes its write-ahead log when the database is closed, not when the process dies. */
    const databaseClosed = () =>
      postgres ? true : !existsSync(path.join(dataDir, 'stockroom.db-wal'));
    return { port, entry, databaseClosed };
  }

  it('answers in-flight requests with Connection: close, 503s new ones, and exits 0 within 3 s', async () => {
    const { port, entry, databaseClosed } = await start();
    // Idle: a request answered, the connection kept.
    const idle = await Connection.open(port);
    connections.push(idle);
    idle.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect((await idle.response()).status).toBe(200);

    // In flight: a login whose body has only half arrived.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong password 1' });
    const inFlight = await Connection.open(port);
    connections.push(inFlight);
    inFlight.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    // Begun: a request whose headers have not all arrived.
    const begun = await Connection.open(port);
    connections.push(begun);
    begun.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await sleep(300);

    const signalled = Date.now();
    entry.child.kill('SIGTERM');
    await expect.poll(() => refused(port), { timeout: 3_000, interval: 20 }).toBe(true);
    await expect(within(idle.closed, 2_000)).resolves.toBeUndefined();

    // A request that arrives during shutdown: 503 in the API's shape.
    begun.write('\r\n');
    const unavailable = await begun.response();
    expect(unavailable.status).toBe(503);
    expect(JSON.parse(unavailable.body)).toEqual({ message: expect.any(String) });
    expect(unavailable.headers['retry-after']).toMatch(/^\d+$/);
    expect(unavailable.headers.connection).toBe('close');

    // The request in flight completes, and the server says it closes the connection.
    inFlight.write(body.slice(10));
    const answered = await inFlight.response();
    expect(answered.status).toBe(400);
    expect(JSON.parse(answered.body)).toEqual({ message: expect.any(String) });
    expect(answered.headers.connection).toBe('close');

    // Nobody hangs up on their side: the server closes both and exits cleanly.
    await expect(within(inFlight.closed, 2_000)).resolves.toBeUndefined();
    await expect(within(begun.closed, 2_000)).resolves.toBeUndefined();
    expect(await within(entry.exited, 3_000)).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(3_000);
    expect(entry.stderr()).not.toMatch(/shutdown failed/);
    expect(databaseClosed()).toBe(true);
  });

  it('cuts what is still unfinished after the drain time, then exits 0', async () => {
    const { port, entry, databaseClosed } = await start();
    // A client that began a request and never finishes it.
    const stuck = await Connection.open(port);
    connections.push(stuck);
    stuck.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await sleep(300);

    const signalled = Date.now();
    entry.child.kill('SIGTERM');
    expect(await within(entry.exited, DRAIN_MS + 2_000)).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_MS - 500);
    expect(stuck.isClosed).toBe(true);
    expect(databaseClosed()).toBe(true);
  });
});
