/**
 * Where the user was on the product list (its search, sort and scroll), so that 'Back to Products'
 * returns there as the browser's Back button does. Kept per tab in sessionStorage.
 */
const KEY = 'stockroom:product-list-place';

export interface ListPlace {
  /** The list's URL search, e.g. '?q=lamp&sort=name' ('' for the plain list). */
  search: string;
  scrollY: number;
}

export function rememberListPlace(place: ListPlace) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(place));
  } catch {
    // Storage full or refused (private modes): the link falls back to the plain list.
  }
}

export function lastListPlace(): ListPlace | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (
      typeof value === 'object' &&
      value !== null &&
      'search' in value &&
      'scrollY' in value &&
      typeof value.search === 'string' &&
      typeof value.scrollY === 'number'
    ) {
      return { search: value.search, scrollY: value.scrollY };
    }
  } catch {
    // Unreadable: as if nothing was remembered.
  }
  return null;
}
