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
