import type { Page } from '@playwright/test';
import { M } from '../src/shared/messages.js';
import { ENV, requireEnv } from './support/env.js';
import { expect, test } from './support/fixtures.js';
import {
  fillLogin,
  loginButton,
  openUserMenuItem,
  requestResetCode,
  toast,
  userMenuButton,
  withoutLiveUpdates,
} from './support/ui.js';

/** The element that has the keyboard focus, described by its tag and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    return `${element.tagName.toLowerCase()}: ${element.textContent?.trim()}`;
  });

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a new screen starts at the top: detail, scrolled down, to edit', async ({
    page,
    createProduct,
    signIn,
  }) => {
    const product = await createProduct({
      name: 'Tall cabinet',
      price: 120,
      stock: 4,
      description: 'A cabinet with a description long enough to make the page scroll. '.repeat(12),
      image: 'shelf',
    });
    await signIn();
    await page.goto(`/details/product/${product.id}`);
    const edit = page.getByRole('link', { name: 'Edit Product' });
    await edit.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);

    await edit.click();
    await expect(page.getByRole('heading', { name: 'Edit Product' })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // Back is a pop: the browser returns to where the user was on the detail page.
    await page.goBack();
    await expect(page.getByRole('link', { name: 'Edit Product' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  });
});

test('after a client-side navigation the focus is on the new page heading, not on the first load', async ({
  page,
  user,
  signIn,
}) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  expect(await focused(page)).toBe('body');

  await page.getByRole('link', { name: 'Create your Free account now' }).click();
  await expect.poll(() => focused(page)).toBe('h1: Create an Account');
  await expect(page).toHaveTitle(/^Create an Account/);

  await signIn();
  await openUserMenuItem(page, user.name, 'My Profile');
  await expect.poll(() => focused(page)).toBe('h1: Profile');
  await page.getByRole('link', { name: 'Change Password' }).click();
  await expect.poll(() => focused(page)).toBe('h1: Change Password');
});

test('a new screen that keeps the focus in its own field has its title announced instead', async ({
  page,
  user,
}) => {
  await requestResetCode(page, user.email);
  await page.getByRole('link', { name: 'Enter the code' }).click();
  // The code boxes take the focus (type at once); the screen's name goes to a polite live region.
  await expect.poll(() => focused(page)).toBe('input: ');
  await expect(
    page.getByRole('status').filter({ hasText: /^Reset your password · Stockroom$/ }),
  ).toBeAttached();
});

test('a session that ends elsewhere: to the login screen with the way back, then back there', async ({
  page,
  user,
  api,
  signIn,
}) => {
  // The ended session is found by the next request, not by the live stream.
  await withoutLiveUpdates(page);
  await signIn();
  await page.goto('/profile/new-password?from=menu');
  await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
  // This browser's token, revoked as a logout elsewhere (or its expiry) would.
  const browserToken = await page.evaluate(() => localStorage.getItem('AccessToken'));
  await api.logout(browserToken!);

  await page.getByRole('link', { name: 'My Profile' }).click();
  // The first request that needs the session finds it ended: the profile's own load when its data
  // has grown old (a slow machine), else the update.
  const update = page.getByRole('button', { name: 'Update Profile' });
  const welcome = page.getByRole('heading', { name: 'Welcome Back!' });
  await expect(update.or(welcome)).toBeVisible();
  if (await update.isVisible()) await update.click({ timeout: 5_000 }).catch(() => undefined);
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fprofile$/);
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();

  await fillLogin(page, user);
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
});

test('a protected page opened signed out comes back after login, search included', async ({
  page,
  user,
}) => {
  await page.goto('/?q=cabinet&sort=name');
  await expect(page).toHaveURL(/\/auth\/login\?next=/);
  await fillLogin(page, user);
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/\?q=cabinet&sort=name$/);
  await expect(userMenuButton(page, user.name)).toBeVisible();
});

test('next only leads within the app', async ({ page, user }) => {
  for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
    await page.goto(`/auth/login?next=${encodeURIComponent(next)}`);
    await fillLogin(page, user);
    await loginButton(page).click();
    await expect(userMenuButton(page, user.name)).toBeVisible();
    // Still this app, on the product list.
    expect(new URL(page.url()).origin).toBe(new URL(requireEnv(ENV.baseUrl)).origin);
    expect(new URL(page.url()).pathname).toBe('/');
    await openUserMenuItem(page, user.name, 'Logout');
    await expect(page).toHaveURL(/\/auth\/login$/);
  }
});

test('a signed-in user who opens the login or sign-up screen goes to the products', async ({
  page,
  signIn,
}) => {
  await signIn();
  for (const path of ['/auth/login', '/auth/signup']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Products', exact: true })).toBeVisible();
  }
});

test('a failed login stays on screen next to the form after the toast is gone', async ({
  page,
  user,
}) => {
  await page.goto('/auth/login');
  await fillLogin(page, { email: user.email, password: `${user.password}-wrong` });
  await loginButton(page).click();
  await expect(toast(page, M.badCredentials)).toBeVisible();
  const inline = page.getByRole('main').getByRole('alert').filter({ hasText: M.badCredentials });
  await expect(inline).toBeVisible();
  await expect(toast(page, M.badCredentials)).toBeHidden({ timeout: 10_000 });
  await expect(inline).toBeVisible();
});

/**
 * Tabs through the page and, for each element that shows an outline when focused, returns the
 * contrast between the outline and the background it is drawn on (the nearest opaque background
 * around the element), WCAG's formula.
 */
async function focusRingContrasts(page: Page, tabs: number) {
  const found: { element: string; contrast: number }[] = [];
  for (let i = 0; i < tabs; i++) {
    await page.keyboard.press('Tab');
    // Buttons fade their colours in (transition-colors): measure the ring once it is drawn.
    await page.waitForTimeout(250);
    const ring = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return undefined;
      const style = getComputedStyle(element);
      if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) === 0) return undefined;
      const context = document.createElement('canvas').getContext('2d', {
        willReadFrequently: true,
      })!;
      const rgba = (colour: string) => {
        context.clearRect(0, 0, 1, 1);
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
        return Array.from(context.getImageData(0, 0, 1, 1).data);
      };
      // What is painted just outside the ring, beside the element (it may be positioned).
      const box = element.getBoundingClientRect();
      const reach = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth) + 2;
      const x = box.left - reach >= 0 ? box.left - reach : box.right + reach;
      const under = document
        .elementsFromPoint(x, box.top + box.height / 2)
        .filter((candidate) => candidate !== element && !element.contains(candidate));
      let background = [255, 255, 255, 255];
      for (const candidate of under) {
        const colour = rgba(getComputedStyle(candidate).backgroundColor);
        if (colour[3]! > 250) {
          background = colour;
          break;
        }
      }
      const luminance = ([r, g, b]: number[]) => {
        const linear = (c: number) => {
          const v = c / 255;
          return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
      };
      const a = luminance(rgba(style.outlineColor));
      const b = luminance(background);
      return {
        element: `${element.tagName.toLowerCase()} "${element.textContent?.trim() || element.getAttribute('aria-label') || ''}"`,
        contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
      };
    });
    if (ring) found.push(ring);
  }
  return found;
}

test('focus rings in the app shell reach 3:1 against what is around them', async ({
  page,
  signIn,
}) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  const auth = await focusRingContrasts(page, 9);
  await signIn();
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  const main = await focusRingContrasts(page, 6);
  const rings = [...auth, ...main];
  expect(rings.length).toBeGreaterThan(4);
  expect(rings.filter((ring) => ring.contrast < 3)).toEqual([]);
});
