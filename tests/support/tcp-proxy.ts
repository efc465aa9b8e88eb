import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on loopback in front of a real server, which a test can cut off: every relayed
 * connection is dropped mid-stream and new ones are refused until `restore`. To the client this is
 * what a database restart looks like, without restarting a server that other tests share. Or it
 * can stall: connections stay open and nothing more is relayed either way until `unstall`, what a
 * server that stops answering looks like (a blocked Redis) to its clients alone.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(from);
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
        const pair: [Socket, Socket] = [from, to];
        this.pairs.add(pair);
        from.on('close', () => this.pairs.delete(pair));
        if (this.stalled) from.pause();
        else from.pipe(to);
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.server = server;
    this.port = address.port;
    return this.port;
  }

  /** Drops every relayed connection and stops listening: connections are refused until restore. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) =>
      server ? server.close(() => resolve()) : resolve(),
    );
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Relays nothing more, either way, on open or new connections, which stay open. */
  stall(): void {
    this.stalled = true;
    for (const [from, to] of this.pairs) {
      from.unpipe(to);
      from.pause();
    }
  }

  /** Relays again, what was held first. */
  unstall(): void {
    this.stalled = false;
    for (const [from, to] of this.pairs) from.pipe(to);
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
