/**
 * The yardstick: plain node:http answering precomputed JSON bodies, one per path, after reading
 * the request body (as the real server must). Nothing else: no routing, auth, database or logging.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

const bodies = new Map<string, Buffer>(
  Object.entries(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, string>).map(
    ([path, body]) => [path, Buffer.from(body)],
  ),
);

const server = http.createServer((request, response) => {
  const body = bodies.get(request.url ?? '') ?? Buffer.from('{}');
  request.resume();
  request.on('end', () => {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    });
    response.end(body);
  });
});
// PORT when the runner chose one (a cold start it times), else any free port, sent over IPC.
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
