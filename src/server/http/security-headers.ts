import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

const HSTS = 'max-age=31536000; includeSubDomains';

const pathOf = ({ url }: FastifyRequest) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** Answers that carry neither a token nor user data, and so may be cached by whoever wants to. */
const isPublicApi = (path: string) =>
  path.startsWith('/api/images/') || path === '/api/health' || path === '/api/ready';

/** What a page has inline, as Content-Security-Policy sources that allow exactly that. */
export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

/**
 * The Content-Security-Policy of the app's HTML: everything from the server itself; scripts and
 * styles also inline when they are exactly the page's own (by hash: the router's hydration data
 * and the app's stylesheet in the pages the build wrote), and WebAssembly compiled (the scan
 * screen's barcode reader, whose .wasm comes from the server like every script: 'wasm-unsafe-eval'
 * allows compiling it, not eval of text; it is in every page because the app moves to the scan
 * screen without loading a new one); images also as data: (the favicon) and blob: (previews of a
 * picked file), and from PUBLIC_URL, which image URLs and e-mail links are built on even when the
 * page was opened under another name.
 */
export function appContentSecurityPolicy(config: Config, inline: InlineHashes): string {
  const publicOrigin = new URL(config.publicUrl).origin;
  return [
    "default-src 'self'",
    ["script-src 'self' 'wasm-unsafe-eval'", ...inline.scripts].join(' '),
    ["style-src 'self'", ...inline.styles].join(' '),
    `img-src 'self' data: blob: ${publicOrigin}`,
    `connect-src 'self' ${publicOrigin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every answer carries, whatever its path. */
const EVERY_ANSWER = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * The set per kind of path, built once: every answer pays for one lookup instead of building them.
 * Pictures are the one thing a frontend on another origin (CORS_ORIGINS) embeds with <img>,
 * which CORS does not cover: `same-site` would break one on another site, and CORP has no
 * list of origins. `cross-origin` gives away nothing: the unguessable name is the only key,
 * and whoever has it can fetch the file anyway. API answers that may carry a token or user data
 * are never stored by a cache.
 */
const HEADERS = {
  image: { ...EVERY_ANSWER, 'cross-origin-resource-policy': 'cross-origin' },
  shareable: { ...EVERY_ANSWER, 'cross-origin-resource-policy': 'same-origin' },
  private: {
    ...EVERY_ANSWER,
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  },
};

/** The headers of an answer whose path is not known (the HTTP layer's): the strictest set. */
export const UNKNOWN_PATH_HEADERS = HEADERS.private;

function headersFor(path: string) {
  if (path.startsWith('/api/images/')) return HEADERS.image;
  const isApi = path === '/api' || path.startsWith('/api/');
  return isApi && !isPublicApi(path) ? HEADERS.private : HEADERS.shareable;
}

/**
 * Headers every answer carries; the HTML's CSP is set where it is served.
 * Also called by the answers Fastify sends before any hook runs (a malformed URL's 400).
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply) {
  reply.headers(headersFor(pathOf(request)));
  // request.protocol is https only over TLS or when a trusted proxy says so (TRUST_PROXY).
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
}

export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(request, reply);
    done(null, payload);
  });
}
