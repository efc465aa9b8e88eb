import type { Page } from '@playwright/test';
import { newAccount } from './support/accounts.js';
import { expect, test } from './support/fixtures.js';
import { readCode, readLink } from './support/mail.js';
import { fillLogin, loginButton, productCard, toast, typeCode } from './support/ui.js';

/** Waits until the page's live stream is open (it starts once the first screen has settled). */
const streamOpen = (page: Page) =>
  page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/events' && response.ok(),
  );

test('an owner invites a teammate who signs up from the mail, joins, and works in the catalogue', async ({
  browser,
  page,
  api,
  user,
  token,
  signIn,
}) => {
  test.setTimeout(120_000);
  // The owner's shared catalogue, with a product in it.
  const catalogueId = await api.createCatalogue(token, 'Team shop');
  await api.createProduct(
    token,
    { name: 'Copper kettle', price: 25, stock: 6, description: 'A kettle.' },
    { catalogueId },
  );
  await signIn(user, page);

  // The owner invites a second address as an editor from the catalogue's settings.
  await page.getByRole('button', { name: /^Catalogue: / }).click();
  await page
    .getByRole('navigation', { name: 'Catalogues' })
    .getByRole('link', { name: /Team shop/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/catalogues/${catalogueId}$`));
  await expect(productCard(page, 'Copper kettle')).toBeVisible();
  await page.getByRole('link', { name: 'Catalogue settings' }).click();
  const teammate = newAccount('teammate');
  const invite = page.getByRole('region', { name: 'Invite someone' });
  await invite.getByLabel('Email').fill(teammate.email);
  await invite.getByRole('radio', { name: /Editor/ }).check();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(toast(page, `Invitation sent to ${teammate.email}`)).toBeVisible();
  await expect(invite.getByText(teammate.email)).toBeVisible();

  // The teammate opens the mail's link in a browser of their own, signs up with that address,
  // confirms with the mailed code and logs in.
  const link = await readLink(teammate.email, { subject: /invited you to a catalogue/ });
  expect(new URL(link).pathname).toBe('/invitations');
  const theirs = await browser.newContext();
  const second = await theirs.newPage();
  await second.goto('/auth/signup');
  await second.getByLabel('Name', { exact: true }).fill(teammate.name);
  await second.getByLabel('Email', { exact: true }).fill(teammate.email);
  await second.getByLabel('Password', { exact: true }).fill(teammate.password);
  await second.getByLabel('Confirm Password', { exact: true }).fill(teammate.password);
  await second.getByRole('button', { name: 'Sign Up', exact: true }).click();
  const code = await readCode(teammate.email);
  await second.goto(await readLink(teammate.email, { subject: /confirm/i }));
  await typeCode(second, code);
  await expect(second).toHaveURL(/\/auth\/login/);
  await fillLogin(second, teammate);
  await loginButton(second).click();
  await expect(second).toHaveURL(/\/$/);

  // The invitation waits: the header counts it; accepting opens the shared catalogue.
  await second.getByRole('link', { name: '1 invitation waiting' }).click();
  await expect(second).toHaveURL(/\/invitations$/);
  await second.getByRole('button', { name: 'Accept the invitation to Team shop' }).click();
  await expect(toast(second, 'You joined Team shop')).toBeVisible();
  await expect(second).toHaveURL(new RegExp(`/catalogues/${catalogueId}$`));
  await expect(second.getByText('Editor', { exact: true })).toBeVisible();

  // The owner watches the list; the teammate's stock change shows there without a reload.
  const ownerStream = streamOpen(page);
  await page.goto(`/catalogues/${catalogueId}`);
  await ownerStream;
  const kettle = productCard(second, 'Copper kettle');
  const answered = second.waitForResponse(
    (response) =>
      /\/api\/catalogues\/[^/]+\/products\/[^/]+\/stock$/.test(response.url()) && response.ok(),
  );
  await kettle.getByRole('button', { name: 'Increase stock of Copper kettle' }).click();
  await answered;
  await expect(productCard(page, 'Copper kettle').getByText(/^7 units$/)).toBeVisible({
    timeout: 5_000,
  });

  // The owner makes the teammate a viewer: their screen follows, without write controls.
  await page.goto(`/catalogues/${catalogueId}/settings`);
  await page.getByLabel(`Role of ${teammate.name}`).selectOption('viewer');
  await expect(toast(page, 'Role changed')).toBeVisible();
  await expect(second.getByText('Viewer', { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(kettle.getByRole('button', { name: 'Increase stock of Copper kettle' })).toHaveCount(
    0,
  );
  await expect(second.getByRole('link', { name: /Add product/ })).toHaveCount(0);
  await expect(second.getByRole('link', { name: 'Edit Copper kettle' })).toHaveCount(0);
  await expect(second.getByRole('button', { name: 'Delete Copper kettle' })).toHaveCount(0);
  await theirs.close();
});
