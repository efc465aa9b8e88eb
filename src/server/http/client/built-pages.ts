import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { DEV_MAILBOX_META } from '../../../shared/constants.js';
import { keepOnSuccess } from '../../../shared/keep-on-success.js';
import type { InlineHashes } from '../security-headers.js';

/** The encodings a page is also kept in. */
export type PageEncoding = 'br' | 'gzip';

/** A page of the built client, ready to send: its bytes, compressed on demand, and its CSP. */
export interface BuiltPage {
  identity: Buffer;
  /** The page in that encoding, compressed by the first request that takes it, then kept. */
  encoded(encoding: PageEncoding): Promise<Buffer>;
  contentSecurityPolicy: string;
}

export interface BuiltPages {
  /**
   * The page for a path the app routes in the browser; with `devMailbox`, the one that tells the
   * app of the local mailbox (only a request that may read it gets that one).
   */
  pageFor(url: string, devMailbox: boolean): BuiltPage;
}

interface PageOptions {
  /** The policy of a page, given the hashes of its inline scripts and styles ('sha256-…'). */
  contentSecurityPolicy: (hashes: InlineHashes) => string;
  /** The server keeps a local mailbox: each page also comes in a version that says so. */
  devMailbox: boolean;
}

/** A page as the app built it, and as the requests that may read the mailbox get it. */
interface PageVersions {
  plain: BuiltPage;
  withDevMailbox: BuiltPage;
}

/** The page written for every path the build did not prerender (React Router's name for it). */
const FALLBACK = '__spa-fallback.html';

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;
const INLINE_STYLE = /<style[^>]*>([\s\S]*?)<\/style>/g;

/** 'sha256-…' of each match's body. */
const hashesOf = (html: string, element: RegExp) =>
  [...html.matchAll(element)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
  );

/** The path a built HTML file stands for: `auth/login/index.html` is /auth/login. */
function pathOf(file: string): string {
  const dir = path.dirname(file).split(path.sep).join('/');
  return dir === '.' ? '/' : `/${dir}`;
}

const compressors: Record<PageEncoding, (page: Buffer) => Promise<Buffer>> = {
  br: (page) =>
    promisify(brotliCompress)(page, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    }),
  gzip: (page) => promisify(gzip)(page, { level: constants.Z_BEST_COMPRESSION }),
};

function preparePage(html: string, options: PageOptions): PageVersions {
  const plain = preparedPage(html, options);
  // The app shows a link to the mailbox where its page says there is one, so the page says so only
  // to whom the mailbox answers (see serve-client.ts).
  const withDevMailbox = options.devMailbox
    ? preparedPage(
        html.replace('</head>', `<meta name="${DEV_MAILBOX_META}" content="">$&`),
        options,
      )
    : plain;
  return { plain, withDevMailbox };
}

function preparedPage(page: string, options: PageOptions): BuiltPage {
  const identity = Buffer.from(page);
  // Compressing every page at the best level takes the thread pool some 100 ms: start-up leaves
  // it to the first request of each page and encoding.
  const encodings = {
    br: keepOnSuccess(() => compressors.br(identity)),
    gzip: keepOnSuccess(() => compressors.gzip(identity)),
  };
  return {
    identity,
    encoded: (encoding) => encodings[encoding](),
    contentSecurityPolicy: options.contentSecurityPolicy({
      scripts: hashesOf(page, INLINE_SCRIPT),
      styles: hashesOf(page, INLINE_STYLE),
    }),
  };
}

/**
 * Reads the pages of the built client once, at start-up: each prerendered path's `index.html` (a
 * path with `:name` segments stands for every path of its shape) and the fallback page for every
 * other path (index.html when the build prerendered nothing). A page is compressed once per
 * encoding, when first asked for, and its inline scripts (React Router's hydration data) and styles
 * (the app's stylesheet) are allowed by their hashes, so the policy stays without 'unsafe-inline'.
 * Undefined when there is no build.
 */
export async function loadBuiltPages(
  clientDir: string,
  options: PageOptions,
): Promise<BuiltPages | undefined> {
  let files: string[];
  try {
    files = await readdir(clientDir, { recursive: true });
  } catch {
    return undefined;
  }
  const pages = new Map<string, PageVersions>();
  let fallback: PageVersions | undefined;
  for (const file of files) {
    const isPage = path.basename(file) === 'index.html' || file === FALLBACK;
    if (!isPage || file.startsWith(`assets${path.sep}`)) continue;
    const page = preparePage(await readFile(path.join(clientDir, file), 'utf8'), options);
    if (file === FALLBACK) fallback = page;
    else pages.set(pathOf(file), page);
  }
  fallback ??= pages.get('/');
  if (!fallback) return undefined;
  const spa = fallback;
  const patterns = [...pages].filter(([key]) => key.includes('/:'));
  // A prerendered page shows its path without a query string: what a query changes (an e-mail
  // in a mail's link, a code) is not in it, and hydrating it would not match. Those get the
  // fallback page, which the app renders in full.
  const pageVersionsFor = (url: string) => {
    const [pathname = '/', query] = url.split('?', 2);
    if (query !== undefined) return spa;
    const key = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    const exact = pages.get(key);
    if (exact) return exact;
    return patterns.find(([pattern]) => matchesPattern(pattern, key))?.[1] ?? spa;
  };
  return {
    pageFor(url, devMailbox) {
      const versions = pageVersionsFor(url);
      return devMailbox ? versions.withDevMailbox : versions.plain;
    },
  };
}

/**
 * Whether a path has a pattern page's shape: `/details/product/:productId` is the page of
 * `/details/product/abc`, the same segments with any one in the place of each `:name`.
 */
function matchesPattern(pattern: string, pathname: string): boolean {
  const wanted = pattern.split('/');
  const given = pathname.split('/');
  return (
    wanted.length === given.length &&
    wanted.every((segment, index) =>
      segment.startsWith(':') ? given[index] !== '' : segment === given[index],
    )
  );
}
