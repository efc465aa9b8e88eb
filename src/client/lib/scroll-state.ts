/**
 * Router state of a move to a screen that puts its own scroll position back (the list, reached
 * through 'Back to Products'): the app then leaves the scroll alone instead of starting the new
 * screen at the top (app/components/ScreenChange.tsx).
 */
export interface RestoresScroll {
  restoreScrollY: number;
}

export const restoresScroll = (state: unknown): state is RestoresScroll =>
  typeof state === 'object' &&
  state !== null &&
  'restoreScrollY' in state &&
  typeof state.restoreScrollY === 'number';
