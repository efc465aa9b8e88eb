import { randomInt } from 'node:crypto';
import { Agent } from 'node:http';
import { rawRequest, type RawAnswer } from '../support/raw-http.js';

export type Answer = RawAnswer;

export interface Request {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** An object goes as JSON. */
  json?: unknown;
  /** Goes as multipart/form-data, framed by the platform's own encoder. */
  form?: FormData;
}

/** The parsed JSON body of an answer. */
export const bodyOf = <T = { message?: string }>(answer: Answer): T =>
  JSON.parse(answer.body.toString('utf8')) as T;

/**
 * A fresh loopback address (Linux routes all of 127.0.0.0/8 to the loopback interface), so each
 * client of a test run is a client of its own to the rate limits, whatever earlier runs left in
 * Redis.
 */
const freshLoopbackAddress = () =>
  `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/**
 * A client machine: real HTTP from its own source address, which is what the proxy reports in
 * X-Forwarded-For and what the rate limits count against.
 */
export class HttpClient {
  readonly address = freshLoopbackAddress();
  private readonly agent = new Agent({ keepAlive: true });

  async send(baseUrl: string, { method = 'GET', path, token, json, form }: Request) {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let payload: Buffer | undefined;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = Buffer.from(JSON.stringify(json));
    } else if (form !== undefined) {
      const encoded = new Response(form);
      headers['content-type'] = encoded.headers.get('content-type') ?? '';
      payload = Buffer.from(await encoded.arrayBuffer());
    }
    if (payload !== undefined) headers['content-length'] = String(payload.length);
    const url = new URL(path, baseUrl);
    return rawRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers,
        localAddress: this.address,
        agent: this.agent,
      },
      payload,
    );
  }

  close() {
    this.agent.destroy();
  }
}
