/**
 * The browser tab's title for a screen: a `<title>` that React hoists into the document's head
 * while the screen is shown, ahead of the page's own title, which shows again once it is gone.
 */
export function DocumentTitle({ children }: { children: string }) {
  return <title>{`${children} · Stockroom`}</title>;
}
