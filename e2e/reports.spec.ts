import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';

/** The page does not scroll sideways; the failure names the elements that stick out. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth, outside } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    outside: [...document.body.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.className}">`),
  }));
  expect(scrollWidth, `the page scrolls sideways: ${outside.join(', ')}`).toBeLessThanOrEqual(
    innerWidth,
  );
}

const today = () => new Date().toISOString().slice(0, 10);

test('reports: the stock chart and its table, top movers, to reorder, a CSV download', async ({
  page,
  api,
  token,
  user,
  createProduct,
  signIn,
}) => {
  const lamp = await createProduct({
    name: 'Desk lamp',
    price: 19.99,
    stock: 12,
    description: 'For the desk',
  });
  await createProduct({ name: '=Mug', price: 4.5, stock: 3, description: 'Looks like a formula' });
  await api.adjustStock(token, lamp.id, -5);
  await api.adjustStock(token, lamp.id, 2);
  await signIn();

  await page.getByRole('button', { name: `Hello ${user.name}` }).click();
  await page.getByRole('menuitem', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/^Reports/);

  // One chart, drawn by uPlot, and the same figures as a table.
  const chart = page.getByRole('img', { name: /Stock value and units/ });
  await expect(chart.locator('canvas')).toHaveCount(1);
  const figures = page.getByRole('region', { name: 'Daily figures' });
  await expect(figures.getByRole('row')).toHaveCount(31);
  // 9 lamps at $19.99 and 3 mugs at $4.50.
  await expect(figures.getByRole('row').last()).toHaveText(
    new RegExp(`${today()}\\s*12\\s*\\$193\\.41`),
  );
  await page.getByRole('button', { name: 'Show as table' }).click();
  await expect(figures).toBeVisible();

  const movers = page.getByRole('region', { name: 'Top movers', exact: true });
  await expect(movers.getByRole('row')).toHaveText([
    /Product\s*In\s*Out\s*Moved/,
    /Desk lamp\s*14\s*5\s*19/,
    /=Mug\s*3\s*0\s*3/,
  ]);
  const reorder = page.getByRole('region', { name: 'To reorder', exact: true });
  await expect(reorder.getByRole('row')).toHaveText([
    /Product\s*Stock\s*Reorder point\s*On order\s*To order/,
    /=Mug\s*3\s*10\s*0\s*8/,
    /Desk lamp\s*9\s*10\s*0\s*2/,
  ]);
  await expect(page.getByRole('heading', { name: 'No movement in 90 days' })).toBeVisible();

  const download = page.waitForEvent('download');
  await page
    .locator('section', { has: page.getByRole('heading', { name: 'To reorder' }) })
    .getByRole('link', { name: 'Download CSV' })
    .click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('to-reorder.csv');
  const text = (await readFile((await file.path())!)).toString('utf8');
  expect(text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
    'Product,SKU,Barcode,Cost,Stock,Reorder point,On order,To order',
    "'=Mug,,,,3,10,0,8",
    'Desk lamp,,,,9,10,0,2',
    '',
  ]);

  // Another period: one row a day.
  await page.getByRole('button', { name: '90 days' }).click();
  await expect(figures.getByRole('row')).toHaveCount(91);
  const ninety = page.waitForEvent('download');
  await page
    .locator('section', { has: page.getByRole('heading', { name: 'Stock over time' }) })
    .getByRole('link', { name: 'Download CSV' })
    .click();
  expect((await ninety).suggestedFilename()).toBe('stock-over-time-90-days.csv');

  // A phone: nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(chart.locator('canvas')).toHaveCount(1);
  await expect(movers.getByRole('row')).toHaveCount(3);
  await expectNoSidewaysScroll(page);
});

test('reports of a shared catalogue: a viewer opens them from the menu inside it', async ({
  page,
  api,
  token,
  signIn,
}) => {
  const catalogueId = await api.createCatalogue(token, 'Shop floor');
  await api.createProduct(
    token,
    { name: 'Shared bolt', price: 0.25, stock: 4, description: 'M6' },
    { catalogueId },
  );
  const viewer = await api.signUpAndConfirm();
  await api.invite(token, catalogueId, viewer.email, 'viewer');
  const viewerToken = await api.login(viewer);
  await api.acceptInvitation(viewerToken);
  await signIn(viewer);

  await page.goto(`/catalogues/${catalogueId}`);
  await page.getByRole('button', { name: `Hello ${viewer.name}` }).click();
  await page.getByRole('menuitem', { name: 'Reports' }).click();
  await expect(page).toHaveURL(new RegExp(`/catalogues/${catalogueId}/reports$`));
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'To reorder', exact: true }).getByRole('row'),
  ).toHaveText([/Product/, /Shared bolt\s*4\s*10\s*0\s*7/]);
});
