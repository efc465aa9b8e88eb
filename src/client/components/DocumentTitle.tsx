/** The browser tab's title for a screen (React hoists <title> into the document head). */
export function DocumentTitle({ children }: { children: string }) {
  return <title>{`${children} · Stockroom`}</title>;
}
