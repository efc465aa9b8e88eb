const DETAILS = /^\/details\/product\/([^/]+)\/?$/;

/**
 * The product id of one of our own labels' QR codes (the address of the product's page, on
 * whichever host the labels were printed for); undefined for any other code.
 */
export function productIdOfLink(code: string): string | undefined {
  if (!/^https?:\/\//i.test(code)) return undefined;
  try {
    const match = DETAILS.exec(new URL(code).pathname);
    return match?.[1] && decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}
