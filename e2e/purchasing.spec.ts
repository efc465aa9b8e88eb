import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { signInWithToken } from './support/ui.js';

/**
 * On a phone: what is low is ordered from its preferred supplier in one tap, the draft is marked
 * ordered, and what came in is received by scanning (a code typed, as a scanner types it) until
 * nothing is expected; the stock and the order's status follow.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: 'get' | 'post' | 'put',
  url: string,
  data?: unknown,
): Promise<T> {
  const response = await request[method](url, { headers: bearer(token), data });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as T;
}

test('what is low is ordered, then received by scanning on a phone', async ({
  page,
  request,
  user,
  token,
  createProduct,
}) => {
  test.slow();
  const product = await createProduct({
    name: 'Hex bolt',
    price: 4,
    stock: 2,
    description: 'A bolt.',
    sku: 'BOLT-1',
  });
  const { supplier } = await api<{ supplier: { id: string } }>(
    request,
    token,
    'post',
    '/api/suppliers',
    { name: 'Acme Supply', email: 'orders@acme.test' },
  );
  await api(request, token, 'put', `/api/products/${product.id}/suppliers`, {
    suppliers: [{ supplierId: supplier.id, supplierSku: 'AC-77', cost: 2.5, preferred: true }],
  });

  await signInWithToken(page, token, user.name);
  await page.goto('/?stock=reorder');
  await expect(page.getByRole('heading', { name: 'Hex bolt' })).toBeVisible();
  await page.getByRole('button', { name: "Order what's low" }).click();
  // Said in a toast and beside the button, with the draft's link.
  const drafts = page.getByRole('list', { name: 'Drafts made' });
  await expect(drafts.getByRole('link')).toHaveCount(1);
  await drafts.getByRole('link').click();

  await expect(page.getByRole('heading', { level: 1 })).toContainText('Draft');
  const ordered = Number(await page.getByLabel('Quantity of Hex bolt').inputValue());
  expect(ordered).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Mark as ordered' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Ordered');
  await page.getByRole('link', { name: 'receive by scanning' }).click();

  await expect(page).toHaveURL(/\/scan\?po=/);
  await expect(page.getByRole('list', { name: 'Still expected' })).toContainText(`0 of ${ordered}`);
  // A case of all but one, then the last one: two scans.
  if (ordered > 1) {
    const next = page.getByLabel('Quantity for the next scan');
    await next.fill(String(ordered - 1));
    await next.press('Enter');
    await page.getByLabel('Type a code').fill('BOLT-1');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.getByTestId('scan-result')).toContainText('Still expected: 1');
  }
  await page.getByLabel('Type a code').fill('bolt-1');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByTestId('scan-result')).toContainText('All of this line is in');
  await expect(page.getByRole('list', { name: 'Still expected' })).toContainText('all in');

  const read = await api<{ product: { stock: number } }>(
    request,
    token,
    'get',
    `/api/products/${product.id}`,
  );
  expect(read.product.stock).toBe(2 + ordered);
  const { purchaseOrders } = await api<{ purchaseOrders: { status: string }[] }>(
    request,
    token,
    'get',
    '/api/purchase-orders',
  );
  expect(purchaseOrders.map((order) => order.status)).toEqual(['received']);
});
