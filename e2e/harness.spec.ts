import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { newAccount } from './support/accounts.js';
import { readCode } from './support/mail.js';

/* The suite's own checks must be able to fail: each is shown a case it has to reject. */

test('the accessibility check fails on serious violations', async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>Bad</title></head><body>
    <main><h1>Bad page</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <p style="color:#ccc;background:#fff">Low contrast text</p></main></body></html>`);
  const failure = await expectNoSeriousA11yViolations(page, 'bad').then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(failure).toContain('[critical] image-alt');
  expect(failure).toContain('[serious] color-contrast');
});

test('readCode fails when no mail arrives', async () => {
  const { email } = newAccount('nobody');
  await expect(readCode(email, { timeoutMs: 300 })).rejects.toThrow(`No mail to ${email}`);
});

test("the browser keeps Playwright's switched-off features and opens no page of its own", async ({
  browser,
  page,
}) => {
  await page.goto('chrome://version');
  const commandLine = (await page.locator('#command_line').textContent()) ?? '';
  const lists = [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((match) =>
    match[1]!.split(','),
  );
  // Chromium takes the last list only: it must hold every feature of the ones before it.
  expect(lists.length).toBeGreaterThan(1);
  const last = lists.at(-1)!;
  expect(lists.flat().filter((feature) => !last.includes(feature))).toEqual([]);
  expect(last).toEqual(expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));

  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  await cdp.detach();
  expect(targetInfos.filter(({ url }) => url.includes('omnibox-popup'))).toEqual([]);
});
