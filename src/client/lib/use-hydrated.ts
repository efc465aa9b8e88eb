import { useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

const noSubscription = () => () => undefined;

/**
 * False while React renders a page the build wrote (at build time, and when the browser first
 * hydrates it), true from then on. What the build cannot know (this tab's storage, for one) may
 * only show once this is true, or the first render in the browser would not match the page.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

/**
 * The history entry's state (what a screen was sent with, kept across a reload), once the page is
 * the app's: the page the build wrote was rendered without one.
 */
export function useHistoryState(): unknown {
  const { state } = useLocation();
  return useHydrated() ? (state as unknown) : null;
}
