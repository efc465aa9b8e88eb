import { request, type IncomingHttpHeaders, type RequestOptions } from 'node:http';

/** An answer as it came over the wire: node:http decodes no Content-Encoding. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One HTTP request with node:http (`payload` is sent as the body), read to its end. */
export function rawRequest(options: RequestOptions, payload?: Buffer): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const outgoing = request(options, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
