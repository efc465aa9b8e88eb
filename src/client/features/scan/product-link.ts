/** A product page's path: the personal catalogue's, or one under a shared catalogue. */
const PERSONAL = /^\/details\/product\/([^/]+)\/?$/;
const IN_CATALOGUE = /^\/catalogues\/([^/]+)\/products\/([^/]+)\/?$/;

export interface ProductLink {
  id: string;
  /** The catalogue the label was printed in; none for the personal catalogue's labels. */
  catalogueId?: string;
}

/**
 * The product of one of our own labels' QR codes (the address of the product's page, on
 * whichever host the labels were printed for); undefined for any other code.
 */
export function productOfLink(code: string): ProductLink | undefined {
  if (!/^https?:\/\//i.test(code)) return undefined;
  try {
    const { pathname } = new URL(code);
    const personal = PERSONAL.exec(pathname);
    if (personal?.[1]) return { id: decodeURIComponent(personal[1]) };
    const shared = IN_CATALOGUE.exec(pathname);
    if (shared?.[1] && shared[2]) {
      return { id: decodeURIComponent(shared[2]), catalogueId: decodeURIComponent(shared[1]) };
    }
    return undefined;
  } catch {
    return undefined;
  }
}
