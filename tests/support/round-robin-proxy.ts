import {
  Agent,
  createServer,
  request,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type Server,
} from 'node:http';

/** Headers about one connection, which a proxy does not pass on (RFC 9110, section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  // Connection may name further headers that belong to this hop only.
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) kept[name] = value;
  }
  return kept;
}

/**
 * A load balancer on loopback in front of several server instances, as nginx with an upstream of
 * them would be: each request goes to the next instance in turn, with the client's address added
 * to X-Forwarded-For and X-Forwarded-Proto set; the Host header passes unchanged. `served` records
 * which instance answered each request, so a test can show that its requests were spread.
 */
export class RoundRobinProxy {
  private server: Server | undefined;
  private readonly agent = new Agent({ keepAlive: true });
  private turn = 0;
  /** The index (into the upstream ports) of the instance each request went to, in order. */
  readonly served: number[] = [];
  port = 0;

  constructor(private readonly upstreamPorts: readonly number[]) {}

  async start(): Promise<this> {
    const server = createServer((incoming, outgoing) => {
      const index = this.turn++ % this.upstreamPorts.length;
      this.served.push(index);
      const headers = endToEnd(incoming.headers);
      const client = incoming.socket.remoteAddress ?? '';
      const forwarded = incoming.headers['x-forwarded-for'];
      headers['x-forwarded-for'] = forwarded ? `${String(forwarded)}, ${client}` : client;
      headers['x-forwarded-proto'] = 'http';
      const upstream = request(
        {
          host: '127.0.0.1',
          port: this.upstreamPorts[index],
          method: incoming.method,
          path: incoming.url,
          headers,
          agent: this.agent,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => {
        if (outgoing.headersSent) outgoing.destroy();
        else
          outgoing
            .writeHead(502, { 'content-type': 'application/json' })
            .end(JSON.stringify({ message: 'Bad gateway' }));
      });
      incoming.pipe(upstream);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.server = server;
    this.port = address.port;
    return this;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop() {
    const server = this.server;
    this.server = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    this.agent.destroy();
  }
}
