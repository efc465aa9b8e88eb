/** Helper texts shown by more than one feature. */
export const PASSWORD_HINT = 'At least 8 characters, with a letter and a number.';

/**
 * A screen's text for the browser tab, rendered as `<title>` in the screen itself: React hoists it
 * into the document's head while the screen is shown. One string, as `<title>` must hold.
 */
export const tabTitle = (screen: string) => `${screen} · Stockroom`;
