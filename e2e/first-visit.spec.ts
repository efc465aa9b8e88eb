import { expect, test } from './support/fixtures.js';
import { recordScriptTransfers } from './support/script-bytes.js';
import { productCards, userMenuButton } from './support/ui.js';

/**
 * JavaScript a first visit downloads (cache off, compressed as the browser asks for it), within
 * the budgets of React with React DOM: the login page at most 130 KB, the signed-in product list
 * at most 200 KB (React DOM alone is about 50 KB of it). Counted once the page has settled (no request for
 * half a second), before any interaction: chunks a form preloads on focus come later.
 */
const KB = 1000;
const BUDGET = { login: 130 * KB, products: 200 * KB };

test('the login page downloads at most 130 KB of JavaScript on a first visit', async ({ page }) => {
  const scripts = await recordScriptTransfers(page);
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  console.log(`[first visit] /auth/login:\n${scripts.report()}`);
  expect(scripts.total(), scripts.report()).toBeLessThanOrEqual(BUDGET.login);
});

test('the signed-in product list downloads at most 200 KB of JavaScript on a first visit', async ({
  page,
  api,
  user,
  token,
}) => {
  for (const [i, image] of (['crate', 'shelf', 'crate'] as const).entries()) {
    await api.createProduct(token, {
      name: `Budget item ${i + 1}`,
      price: 10 + i,
      stock: 5 + i,
      description: 'A product of the first-visit budget test.',
      image,
    });
  }
  // The session from a token, set on a page without scripts, so that only '/' is measured.
  await page.goto('/api/health');
  await page.evaluate((value) => localStorage.setItem('AccessToken', value), token);

  const scripts = await recordScriptTransfers(page);
  await page.goto('/');
  await expect(userMenuButton(page, user.name)).toBeVisible();
  await expect(productCards(page)).toHaveCount(3);
  await page.waitForLoadState('networkidle');
  console.log(`[first visit] / signed in:\n${scripts.report()}`);
  expect(scripts.total(), scripts.report()).toBeLessThanOrEqual(BUDGET.products);
});

test('/robots.txt is a real file for crawlers, not the app page', async ({ request }) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/plain/);
  const body = await response.text();
  expect(body).toMatch(/^User-agent: \*$/m);
  expect(body).toMatch(/^Disallow: \/api\/$/m);
});
