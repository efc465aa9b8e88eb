import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { M } from '../../../shared/messages.js';
import { registerPublic } from '../authenticate.js';
import { loadBuiltPages, type BuiltPage, type PageEncoding } from './built-pages.js';

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
  options: Parameters<typeof loadBuiltPages>[1],
) {
  const pages = await loadBuiltPages(clientDir, options);
  if (pages) {
    await registerPublic(app, () =>
      app.register(fastifyStatic, {
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
      }),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (!isApi && pages && (request.method === 'GET' || request.method === 'HEAD')) {
      return sendPage(reply, pages.pageFor(request.url), request.headers['accept-encoding']);
    }
    return reply.code(404).send({ message: M.notFound });
  });
}
