/**
 * The first stop of the keyboard: straight to the screen's content. It shows over the dark header,
 * so its ring is white (an indigo one has less than 3:1 against gray-900).
 */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-indigo-700 focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:outline-2 focus:outline-offset-2 focus:outline-white"
    >
      Skip to main content
    </a>
  );
}
