import type { Page } from '@playwright/test';

interface ScriptTransfer {
  url: string;
  /** Bytes received for the response, headers included (CDP's `encodedDataLength`). */
  bytes: number;
}

/**
 * Records every script response of the page through the Chrome DevTools Protocol, with the bytes
 * that came over the wire (compressed as the browser asked for it). The browser cache is switched
 * off, so each script counts as on a first visit. Call before the navigation to measure.
 */
export async function recordScriptTransfers(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Map<string, string>();
  const transfers: ScriptTransfer[] = [];
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.set(event.requestId, event.response.url);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const url = scripts.get(event.requestId);
    if (url) transfers.push({ url, bytes: event.encodedDataLength });
  });
  return {
    transfers,
    total: () => transfers.reduce((sum, transfer) => sum + transfer.bytes, 0),
    /** One line per script and the total, in KB (1,000 bytes), for a failure message or the log. */
    report: () =>
      [
        ...transfers.map(
          ({ url, bytes }) => `${(bytes / 1000).toFixed(1)} KB ${new URL(url).pathname}`,
        ),
        `${(transfers.reduce((sum, t) => sum + t.bytes, 0) / 1000).toFixed(1)} KB in total`,
      ].join('\n'),
  };
}
