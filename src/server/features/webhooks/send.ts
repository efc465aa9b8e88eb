import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './addresses.js';

/** What is read of an answer: enough to tell it arrived; the rest is dropped. */
const BODY_CAP_BYTES = 1024;

export interface SendResult {
  /** The answer's HTTP status; null when none came (refused, timed out, TLS failed). */
  status: number | null;
  error: string | null;
}

/**
 * POSTs a signed body to `url`, connecting to `address` (the one that was checked) whatever the
 * host name resolves to now; the Host header and TLS server name stay the URL's, so certificates
 * are checked against the name. Redirects are not followed (a 3xx is a failure), and no more than
 * a kilobyte of the answer is read. `timeoutMs` bounds it, connection to the end of the answer;
 * `signal` cuts it short.
 */
export function sendTo(
  url: URL,
  address: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SendResult> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    } else {
      callback(null, address.address, address.family);
    }
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        ...(signal ? { signal } : {}),
        lookup: pinned,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Stockroom-Webhooks/1',
        },
      },
      (response) => {
        let read = 0;
        const status = response.statusCode ?? null;
        const done = () => {
          response.destroy();
          finish({ status, error: null });
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= BODY_CAP_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    request.on('error', (error) =>
      finish({ status: null, error: String(error.message).slice(0, 500) }),
    );
    request.end(body);
  });
}
