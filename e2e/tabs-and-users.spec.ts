import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { logInThroughForm, openUserMenuItem, productCard, userMenuButton } from './support/ui.js';

/**
 * Two tabs of one browser share its token: a logout, or a login as someone else, in one tab
 * changes it under the other, which must then hold and show nothing of the first user, online or
 * offline (contract: nothing of one user is ever shown to another).
 */

test.use({ serviceWorkers: 'allow' });

/** Everything the browser keeps for offline reading, as text: IndexedDB's saves, local storage's. */
const keptForOffline = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const left = localStorage.getItem('OfflineCacheOnLeave') ?? '';
        const open = indexedDB.open('stockroom-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queries')) return resolve(left);
          const all = db.transaction('queries').objectStore('queries').getAll();
          all.onsuccess = () => resolve(JSON.stringify(all.result) + left);
          all.onerror = () => reject(all.error);
        };
      }),
  );

/** The saves of IndexedDB by key (`queries:<user id>`): when each was taken, and its text. */
const savesByKey = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<Record<string, { timestamp: number; text: string }>>((resolve, reject) => {
        const open = indexedDB.open('stockroom-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queries')) return resolve({});
          const store = db.transaction('queries').objectStore('queries');
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onsuccess = () =>
            resolve(
              Object.fromEntries(
                keys.result.map((key, i) => {
                  const save = values.result[i] as { timestamp: number };
                  return [String(key), { timestamp: save.timestamp, text: JSON.stringify(save) }];
                }),
              ),
            );
          values.onerror = () => reject(values.error);
        };
      }),
  );

const workerReady = (page: Page) =>
  page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

test('a logout and another login in one tab: the other tab keeps nothing of the first user', async ({
  page,
  context,
  api,
  user,
  signIn,
  createProduct,
}) => {
  const secret = await createProduct({
    name: 'First User Secret Jar',
    price: 3,
    stock: 5,
    description: 'Only the first user may see this.',
  });
  await signIn();
  await workerReady(page);
  const other = await context.newPage();
  await other.goto('/');
  await expect(productCard(other, secret.name)).toBeVisible();

  await openUserMenuItem(page, user.name, 'Logout');
  await expect(page).toHaveURL(/\/auth\/login/);
  // The other tab heard of it: the login screen, her screens gone.
  await expect(other.getByText('Welcome Back!')).toBeVisible();
  await expect(other.getByText(secret.name)).toHaveCount(0);

  const second = await api.signUpAndConfirm();
  await api.createProduct(await api.login(second), {
    name: 'Second User Mug',
    price: 5,
    stock: 2,
    description: 'His.',
  });
  await logInThroughForm(page, second);
  await expect(productCard(page, 'Second User Mug')).toBeVisible();
  // Saved for him (the save comes within a second), never anything of hers, by either tab.
  await expect.poll(() => keptForOffline(page)).toContain('Second User Mug');
  await other.waitForTimeout(1_500);
  expect(await keptForOffline(page)).not.toContain(secret.id);

  await context.setOffline(true);
  const offline = await context.newPage();
  await offline.goto('/');
  await expect(userMenuButton(offline, second.name)).toBeVisible();
  await expect(productCard(offline, 'Second User Mug')).toBeVisible();
  await expect(offline.getByText(secret.name)).toHaveCount(0);
});

test("a tab whose token becomes someone else's shows his screens and saves nothing of hers", async ({
  page,
  context,
  api,
  user,
  signIn,
  createProduct,
}) => {
  const secret = await createProduct({
    name: 'Her Private Lamp',
    price: 9,
    stock: 4,
    description: 'Hers.',
  });
  await signIn();
  const other = await context.newPage();
  await other.goto(`/details/product/${secret.id}`);
  await expect(other.getByRole('heading', { name: secret.name, level: 1 })).toBeVisible();
  await expect(userMenuButton(other, user.name)).toBeVisible();
  // Her screens saved for offline while the token is hers.
  await expect.poll(() => keptForOffline(page)).toContain(secret.id);
  // Both tabs' saves done (each is taken within a second of a change).
  await other.waitForTimeout(1_500);
  const herId = await page.evaluate(() => localStorage.getItem('OfflineCacheOwner'));
  const herSave = (await savesByKey(page))[`queries:${herId}`];
  expect(herSave).toBeDefined();

  // His token stored by the first tab (as a login there stores it).
  const second = await api.signUpAndConfirm();
  await api.createProduct(await api.login(second), {
    name: 'His Own Kettle',
    price: 20,
    stock: 1,
    description: 'His.',
  });
  await signIn(second, page);

  // The other tab follows: his name, and at her product's address nothing of it.
  await expect(userMenuButton(other, second.name)).toBeVisible();
  await expect(userMenuButton(other, user.name)).toHaveCount(0);
  await expect(other.getByText('Product not found')).toBeVisible();
  await expect(other.getByText(secret.name)).toHaveCount(0);
  await other.getByRole('link', { name: 'Back to Products' }).click();
  await expect(productCard(other, 'His Own Kettle')).toBeVisible();

  // Neither tab wrote anything of hers since: her save as it was, his without her product.
  await expect
    .poll(() => other.evaluate(() => localStorage.getItem('OfflineCacheOwner')))
    .not.toBe(herId);
  await other.waitForTimeout(1_500);
  const saves = await savesByKey(other);
  expect(saves[`queries:${herId}`]?.timestamp).toBe(herSave?.timestamp);
  for (const [key, save] of Object.entries(saves)) {
    if (key !== `queries:${herId}`) expect(save.text).not.toContain(secret.id);
  }
  expect(
    await other.evaluate(() => localStorage.getItem('OfflineCacheOnLeave') ?? ''),
  ).not.toContain(secret.id);
});
