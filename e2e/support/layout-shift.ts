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
