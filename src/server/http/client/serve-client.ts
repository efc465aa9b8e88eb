import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEV_MAILBOX_PAGE } from '../../../shared/constants.js';
import { M } from '../../../shared/messages.js';
import { registerPublic } from '../authenticate.js';
import { loadBuiltPages, type BuiltPage, type PageEncoding } from './built-pages.js';
import type { InlineHashes } from '../security-headers.js';

interface ClientOptions {
  /** The policy of a page, given the hashes of its inline scripts and styles ('sha256-…'). */
  contentSecurityPolicy: (hashes: InlineHashes) => string;
  /** Whether the local mailbox answers this request; absent when the server keeps none. */
  devMailbox?: (request: FastifyRequest) => boolean;
}

/**
 * Whether a URL is the mailbox's page as the app's router would match it: whatever the case,
 * percent-encoding or trailing slash.
 */
function isDevMailboxPage(url: string): boolean {
  const [pathname = ''] = url.split('?', 1);
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Not percent-encoding: the path as it came.
  }
  return (
    decoded
      .toLowerCase()
      .replace(/\/+/g, '/')
      .replace(/(.)\/$/, '$1') === DEV_MAILBOX_PAGE
  );
}

/** The encoding of a page the client takes, best first (a q=0 refuses one). */
function pageEncoding(acceptEncoding: string | undefined): PageEncoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

async function sendPage(reply: FastifyReply, page: BuiltPage, acceptEncoding: string | undefined) {
  const encoding = pageEncoding(acceptEncoding);
  const body = encoding ? await page.encoded(encoding) : page.identity;
  reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding')
    .header('content-security-policy', page.contentSecurityPolicy);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}

/**
 * Serves the built React app: hashed assets cached for a year, and for every other GET outside
 * the API the page of its path (built-pages.ts), never cached and under the
 * Content-Security-Policy. The build leaves a .br and a .gz beside each asset
 * (scripts/precompress.ts); they are sent to clients that take them, compressed once, not per
 * request. The HTML files are sent only as pages, never as files of their own.
 */
export async function registerClient(
  app: FastifyInstance,
  clientDir: string,
  options: ClientOptions,
) {
  const mayReadDevMailbox = options.devMailbox ?? (() => false);
  const pages = await loadBuiltPages(clientDir, {
    contentSecurityPolicy: options.contentSecurityPolicy,
    devMailbox: options.devMailbox !== undefined,
  });
  if (pages) {
    await registerPublic(app, async () => {
      // The files' route below takes every GET outside the routes, /api/… too, and refuses odd
      // paths itself (a NUL, an encoded backslash: 403), or resolves `..` out of /api. An unknown
      // API path is the API's 404 whatever it holds: this more specific route gives it that.
      app.route({
        method: ['GET', 'HEAD'],
        url: '/api/*',
        schema: { hide: true },
        handler: (_request, reply) => reply.callNotFound(),
      });
      await app.register(fastifyStatic, {
        root: clientDir,
        // One route for every file, looked up when asked for: a route per file (some 300) takes
        // the router tens of milliseconds to build at every start. Paths that are not files fall
        // through to the not-found handler below, which serves the pages.
        wildcard: true,
        index: false,
        cacheControl: false,
        preCompressed: true,
        // Folders (a path ending in /) and HTML files are the pages' to answer.
        allowedPath: (pathName) => !pathName.endsWith('/') && !pathName.endsWith('.html'),
        setHeaders: (reply, sentPath) => {
          const hashed = sentPath.includes(`${path.sep}assets${path.sep}`);
          reply.header(
            'cache-control',
            hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    const isPage = !isApi && (request.method === 'GET' || request.method === 'HEAD');
    if (pages && isPage) {
      const devMailbox = mayReadDevMailbox(request);
      // The mailbox's page exists where its API does, and 404s as the API does elsewhere (the
      // server answers no other page 404: the app shows its own not-found screen).
      if (devMailbox || !isDevMailboxPage(request.url)) {
        const page = pages.pageFor(request.url, devMailbox);
        return sendPage(reply, page, request.headers['accept-encoding']);
      }
    }
    return reply.code(404).send({ message: M.notFound });
  });
}
