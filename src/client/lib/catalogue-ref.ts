import { useParams } from 'react-router';

/**
 * Which catalogue a screen, a request or a cached data set belongs to: a shared catalogue's id,
 * or undefined for the user's personal one, whose screens and requests keep their own addresses
 * (`/`, `/api/products…`). Screens read it from the URL (`/catalogues/:catalogueId/…`).
 */
export type CatalogueRef = string | undefined;

/** The catalogue of the screen shown: the URL's `:catalogueId`, none for the personal one. */
export const useCatalogueRef = (): CatalogueRef => useParams().catalogueId;

/** A products request's path in that catalogue: `/products…` or `/catalogues/{id}/products…`. */
export const productsUrl = (catalogue: CatalogueRef, rest = '') =>
  `${catalogue ? `/catalogues/${encodeURIComponent(catalogue)}` : ''}/products${rest}`;

/** The catalogue's part of its query keys and queued changes. */
export const catalogueKey = (catalogue: CatalogueRef) => catalogue ?? 'personal';
