import type { BrowserContext, Page } from '@playwright/test';

/** A `layout-shift` performance entry (the Layout Instability API; not in TypeScript's DOM lib). */
interface LayoutShift extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
  sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
}

type Watched = Window & { __layoutShift?: { score: number; shifts: string[] } };

/**
 * Sums the page's layout shifts from its first paint on, the way CLS counts them: shifts within
 * 500 ms of a click or key press are left out, since the user expects the page to move then. A
 * plain sum rather than CLS's worst 5 s window, so it is never lower than CLS. Each shift is also
 * described (which elements moved from where to where) for the failure message.
 */
export async function watchLayoutShifts(target: BrowserContext | Page) {
  await target.addInitScript(() => {
    const watched = window as Watched;
    const log = { score: 0, shifts: [] as string[] };
    watched.__layoutShift = log;
    const describe = (node: Node | null) =>
      node instanceof Element
        ? `<${node.tagName.toLowerCase()} class="${node.getAttribute('class') ?? ''}">`
        : String(node?.nodeName);
    const rect = (r: DOMRectReadOnly) => `${r.x},${r.y} ${r.width}x${r.height}`;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as LayoutShift[]) {
        if (entry.hadRecentInput) continue;
        log.score += entry.value;
        const moved = entry.sources.map(
          (source) =>
            `${describe(source.node)} ${rect(source.previousRect)} -> ${rect(source.currentRect)}`,
        );
        log.shifts.push(`${entry.value.toFixed(4)}: ${moved.join('; ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * The layout shift so far, read once the screen has settled: fonts and images loaded, then two
 * frames and a moment for the last entries to be delivered.
 */
export async function layoutShift(page: Page): Promise<{ score: number; shifts: string[] }> {
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  return page.evaluate(async () => {
    await document.fonts.ready;
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    return (window as Watched).__layoutShift ?? { score: 0, shifts: [] };
  });
}

/** A script the page's parser waits for (a classic script stops it), answered after HOLD_MS. */
const HOLD_PATH = '/__hold-the-parser.js';
const HOLD_MS = 150;

/**
 * Where a page's HTML may be cut in two so that an element is there but none of what it holds:
 * right after each start tag from the first `from` to the first `to` after it (but inside an
 * svg).
 */
export function startTagsBetween(html: string, from: string, to: string): number[] {
  const start = html.indexOf(from);
  const end = html.indexOf(to, start + from.length);
  if (start < 0 || end < 0) throw new Error(`no ${from} ... ${to} in the page`);
  const part = html.slice(start, end);
  // Inside an svg a script is an SVG one, which loads nothing (so holds nothing).
  const svgs = [...part.matchAll(/<svg[\s\S]*?<\/svg>/g)].map((svg) => [
    svg.index,
    svg.index + svg[0].length,
  ]);
  return [...part.matchAll(/<[a-z][^>]*>/g)]
    .map((tag) => tag.index + tag[0].length)
    .filter((at) => !svgs.some(([from, to]) => at > from! && at < to!))
    .map((at) => start + at);
}

/**
 * Opens `path` read in two parts, as on a slow connection or a busy phone: its parser is held
 * at the character `at` of the page for a moment, in which the browser paints what it has
 * read, then reads the rest (the page's shifts are watched from then on: watchLayoutShifts).
 */
export async function openReadInTwo(page: Page, path: string, at: number) {
  await page.route(HOLD_PATH, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    // The hold leaves the page as the server made it: React hydrates what it rendered, and an
    // element of ours left in its tree would be a mismatch (an uncaught error in the page). By
    // its address, since inside an svg it is an SVG script, which is no document.currentScript.
    const remove = `document.querySelectorAll('script[src="${HOLD_PATH}"]').forEach((e) => e.remove());`;
    await route.fulfill({ contentType: 'text/javascript', body: remove });
  });
  const cut = (url: URL) => url.pathname === path;
  await page.route(cut, async (route) => {
    const response = await route.fetch();
    const html = await response.text();
    const body = `${html.slice(0, at)}<script src="${HOLD_PATH}"></script>${html.slice(at)}`;
    await route.fulfill({ response, body });
  });
  try {
    await page.goto(path);
  } finally {
    await page.unroute(cut);
    await page.unroute(HOLD_PATH);
  }
}
