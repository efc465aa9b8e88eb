import { newAccount } from './support/accounts.js';
import { expect, test } from './support/fixtures.js';
import { productCard, toast } from './support/ui.js';

test('opening the app goes back to the catalogue last worked in, until another is chosen', async ({
  page,
  api,
  user,
  token,
  signIn,
}) => {
  // The user works in a team's catalogue they joined; their own catalogue is empty.
  const owner = await api.signUpAndConfirm(newAccount('owner'));
  const ownerToken = await api.login(owner);
  const catalogueId = await api.createCatalogue(ownerToken, 'Corner shop');
  await api.createProduct(
    ownerToken,
    { name: 'Tin of tea', price: 6, stock: 12, description: 'Loose leaf.' },
    { catalogueId },
  );
  await api.invite(ownerToken, catalogueId, user.email, 'stock');
  await api.acceptInvitation(token);

  await signIn(user, page);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: /^Catalogue: / }).click();
  await page
    .getByRole('navigation', { name: 'Catalogues' })
    .getByRole('link', { name: /Corner shop/ })
    .click();
  await expect(productCard(page, 'Tin of tea')).toBeVisible();
  // The stock role does not invite: the menu does not offer it there.
  await page.getByRole('button', { name: /^Catalogue: / }).click();
  await expect(page.getByRole('link', { name: 'Manage catalogues' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Invite people' })).toHaveCount(0);

  // Opening the app again lands in the team's catalogue, not the empty personal one.
  await page.goto('/');
  await expect(page).toHaveURL(new RegExp(`/catalogues/${catalogueId}$`));
  await expect(productCard(page, 'Tin of tea')).toBeVisible();

  // Choosing the personal catalogue stays there, and it becomes the one to open next time.
  await page.getByRole('button', { name: /^Catalogue: / }).click();
  await page
    .getByRole('navigation', { name: 'Catalogues' })
    .getByRole('link', { name: new RegExp(`${user.name}'s catalogue`) })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /^Catalogue: / })).toHaveText(
    `${user.name}'s catalogue`,
  );

  // A search asked for by address is the personal list's, whatever was last.
  await page.goto(`/catalogues/${catalogueId}`);
  await expect(productCard(page, 'Tin of tea')).toBeVisible();
  await page.goto('/?q=tea');
  await expect(page).toHaveURL(/\/\?q=tea$/);
});

test('the header menu invites people to the current catalogue in two clicks', async ({
  page,
  user,
  signIn,
}) => {
  await signIn(user, page);
  await page.getByRole('button', { name: /^Catalogue: / }).click();
  await page
    .getByRole('navigation', { name: 'Catalogues' })
    .getByRole('link', { name: 'Invite people' })
    .click();
  await expect(page).toHaveURL(/\/catalogues\/[^/]+\/settings#invite$/);
  const invite = page.getByRole('region', { name: 'Invite someone' });
  await expect(invite.getByLabel('Email')).toBeFocused();
  const teammate = newAccount('helper');
  await page.keyboard.type(teammate.email);
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(toast(page, `Invitation sent to ${teammate.email}`)).toBeVisible();
});
