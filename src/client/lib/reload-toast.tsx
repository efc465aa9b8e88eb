/**
 * A toast's text with a Reload button: for app code that could not be loaded, and for a new
 * version of the app, which `reload` first puts in place.
 */
export function reloadToast(message: string, reload = () => window.location.reload()) {
  return (
    <div>
      <p>{message}</p>
      <button
        type="button"
        className="mt-2 rounded-md bg-white px-3 py-1.5 text-sm font-semibold text-gray-900 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        onClick={reload}
      >
        Reload
      </button>
    </div>
  );
}
