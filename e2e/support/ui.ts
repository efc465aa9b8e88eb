import { expect, type Locator, type Page } from '@playwright/test';
import { M } from '../../src/shared/messages.js';
import type { Account } from './accounts.js';
import { IMAGE_RGB, type ImageName } from './images.js';

/**
 * A toast (react-toastify renders each as an alert, in its 'Notifications' region) with this text.
 * Scoped to that region: some failures also show their message next to the form (role=alert).
 */
export const toast = (page: Page, text: string | RegExp) =>
  page
    .getByRole('region', { name: /^Notifications/ })
    .getByRole('alert')
    .filter({ hasText: text });

export const codeBoxes = (page: Page) =>
  Array.from({ length: 6 }, (_, i) => page.getByLabel(`Digit ${i + 1} of 6`, { exact: true }));

/** Types a code the way a person does: click the first box, then six key presses. */
export async function typeCode(page: Page, code: string) {
  await codeBoxes(page)[0]!.click();
  await page.keyboard.type(code, { delay: 30 });
}

export async function expectCodeCleared(page: Page) {
  for (const box of codeBoxes(page)) await expect(box).toHaveValue('');
}

/** A code surely different from `code`: every digit shifted by one. */
export const wrongCode = (code: string) =>
  code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));

export const loginButton = (page: Page) => page.getByRole('button', { name: /^log ?in$/i });

export async function fillLogin(page: Page, account: Pick<Account, 'email' | 'password'>) {
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
}

/** Logs in through the login screen and waits for the signed-in header. */
export async function logInThroughForm(page: Page, account: Account) {
  await page.goto('/auth/login');
  await expect(page.getByText('Welcome Back!')).toBeVisible();
  await fillLogin(page, account);
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(userMenuButton(page, account.name)).toBeVisible();
}

/** On the sign-up screen: fills in `account`, sends the form and waits for its toast. */
export async function signUpThroughForm(page: Page, account: Account) {
  await page.getByLabel('Name', { exact: true }).fill(account.name);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(toast(page, M.signupDone)).toBeVisible();
}

/** Asks for a password-reset code on the forgot-password screen and waits for its toast. */
export async function requestResetCode(page: Page, email: string) {
  await page.goto('/auth/forgot-password');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send Code' }).click();
  await expect(toast(page, M.forgotDone)).toBeVisible();
}

/**
 * Starts a signed-in session from a token, without the login screen: the token goes where the
 * app keeps it (local storage, key AccessToken). For tests about something else.
 */
export async function signInWithToken(page: Page, token: string, name: string) {
  // Any same-origin document will do to reach the origin's local storage; this one is cheap.
  await page.goto('/api/health');
  await page.evaluate((value) => localStorage.setItem('AccessToken', value), token);
  await page.goto('/');
  await expect(userMenuButton(page, name)).toBeVisible();
}

export const userMenuButton = (page: Page, name: string) =>
  page.getByRole('button', { name: `Hello ${name}` });

export async function openUserMenuItem(page: Page, name: string, item: 'My Profile' | 'Logout') {
  await userMenuButton(page, name).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Holds requests to `pattern` for a moment, so that a busy state ('Saving...') can be seen. */
export async function slowDown(page: Page, pattern: string, ms = 600) {
  await page.route(pattern, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.fallback();
  });
}

/**
 * Keeps the live stream (GET /api/events) from this page, as a dropped connection would: for a
 * test of what a screen does when its data is out of date, which live updates would otherwise
 * put right first, depending on how fast the machine is.
 */
export async function withoutLiveUpdates(page: Page) {
  await page.route(
    (url) => url.pathname === '/api/events',
    (route) => route.abort('internetdisconnected'),
  );
}

/** The cards of the product list (each has a heading; the tag chips inside them do not). */
export const productCards = (page: Page): Locator =>
  page
    .getByRole('region', { name: 'Product list' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading') });

/** The card of one product in the list, found by the name in its heading. */
export const productCard = (page: Page, name: string): Locator =>
  productCards(page).filter({ has: page.getByRole('heading', { name, exact: true }) });

/** The product's name in its card, a link to its detail page. */
export const cardTitleLink = (card: Locator): Locator =>
  card.getByRole('heading').getByRole('link');

/** The colour of an element's text as [r, g, b], whatever colour syntax the CSS used. */
async function textRgb(locator: Locator): Promise<[number, number, number]> {
  return locator.evaluate((element) => {
    const context = document.createElement('canvas').getContext('2d')!;
    context.fillStyle = getComputedStyle(element).color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  });
}

/** Hue in degrees (0 to 360) of an RGB colour: green ~120-160, yellow ~30-65 (dark yellows lower). */
function hue([r, g, b]: [number, number, number]): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 0;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** The average colour of an image as the page shows it, from its decoded pixels. */
async function imageRgb(image: Locator): Promise<[number, number, number]> {
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  return image.evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = 16;
    canvas.height = 16;
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0, 16, 16);
    const data = context.getImageData(0, 0, 16, 16).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) {
      sum[0]! += data[i]!;
      sum[1]! += data[i + 1]!;
      sum[2]! += data[i + 2]!;
    }
    const n = data.length / 4;
    return [sum[0]! / n, sum[1]! / n, sum[2]! / n] as [number, number, number];
  });
}

/**
 * Checks that an <img> shows one of the generated upload images (decoded, with that image's
 * average colour), not a placeholder or a broken picture.
 */
export async function expectShowsImage(image: Locator, name: ImageName) {
  const shown = await imageRgb(image);
  const distance = shown.reduce(
    (sum, channel, i) => sum + Math.abs(channel - IMAGE_RGB[name][i]!),
    0,
  );
  expect(
    distance,
    `the picture's average colour is ${shown.map(Math.round).join(', ')}`,
  ).toBeLessThan(45);
}

// Tailwind's text-yellow-800 is a dark yellow of hue ~33; orange starts below ~28.
const HUES = { green: [100, 170], yellow: [28, 70], red: [-20, 20] } as const;

/** Checks the colour family of an element's text by its hue (Tailwind's oklch colours included). */
export async function expectTextColour(locator: Locator, colour: keyof typeof HUES) {
  const rgb = await textRgb(locator);
  const [from, to] = HUES[colour];
  const h = hue(rgb) > 180 ? hue(rgb) - 360 : hue(rgb);
  expect(h >= from && h <= to, `text colour rgb(${rgb.join(', ')}) is not ${colour}`).toBe(true);
}

/**
 * A control held back by its countdown (after a code request, the screens wait a minute before
 * asking again): screen readers read it as e.g. 'Resend code in 42 seconds'.
 */
export const countingDown = (page: Page, role: 'link' | 'button', label: string): Locator =>
  page.getByRole(role, { name: new RegExp(`^${label} in \\d+ seconds?$`) });

/** The seconds a countdown control shows ('Resend code in 42 s' on screen). */
export async function secondsShown(control: Locator): Promise<number> {
  const seconds = /in (\d+) s/.exec((await control.textContent()) ?? '')?.[1];
  if (!seconds) throw new Error('The control shows no seconds left');
  return Number(seconds);
}
