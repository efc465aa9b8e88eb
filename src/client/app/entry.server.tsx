import { text } from 'node:stream/consumers';
import { prerenderToNodeStream } from 'react-dom/static';
import { ServerRouter, type EntryContext } from 'react-router';

/**
 * Renders a page at build time only: the prerendered screens and the SPA fallback page. Nothing
 * renders on request (the server sends the files this wrote), so each page is written whole, once
 * everything in it has loaded.
 */
export default async function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  context: EntryContext,
) {
  const { prelude } = await prerenderToNodeStream(
    <ServerRouter context={context} url={request.url} />,
  );
  headers.set('content-type', 'text/html; charset=utf-8');
  // React writes the doctype itself, ahead of <html>.
  return new Response(await text(prelude), { status, headers });
}
