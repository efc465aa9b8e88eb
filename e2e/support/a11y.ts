import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe on the page as it is now and fails on any serious or critical violation. In axe's
 * legacy mode: in the page itself, rather than in parts gathered frame by frame and put together in
 * a blank page that each check opened (about 0.6 s more per check). What the legacy mode gives up
 * is cross-origin frames, and the app has no frames.
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const report = serious
    .map((violation) =>
      [
        `[${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})`,
        ...violation.nodes.map(
          (node) =>
            `    at ${node.target.join(' ')}\n      ${node.failureSummary?.replace(/\n/g, '\n      ')}`,
        ),
      ].join('\n'),
    )
    .join('\n');
  expect(report, `axe found serious or critical violations on the ${screen} screen`).toBe('');
}
