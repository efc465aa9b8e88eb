import { test as base, expect, type Page } from '@playwright/test';
import { newAccount, type Account } from './accounts.js';
import { Api } from './api.js';
import { signInWithToken } from './ui.js';

interface Fixtures {
  /** Fresh credentials nobody has signed up with. */
  account: Account;
  /** The API, for setup that is not the thing under test. */
  api: Api;
  /** A confirmed account, signed up through the API with the code from the mail. */
  user: Account;
  /** A bearer token of `user`, from an API login. */
  token: string;
  /** Opens the product list signed in as `account` (API login; the login screen has its own tests). */
  loginAs: (page: Page, account: Account) => Promise<void>;
  /** Fails the test when a page of its browser context throws an uncaught error (automatic). */
  noUncaughtErrors: void;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  account: async ({}, use) => {
    await use(newAccount());
  },
  api: async ({ request }, use) => {
    await use(new Api(request));
  },
  user: async ({ api }, use) => {
    await use(await api.signUpAndConfirm());
  },
  token: async ({ api, user }, use) => {
    await use(await api.login(user));
  },
  loginAs: async ({ api }, use) => {
    await use(async (page, account) =>
      signInWithToken(page, await api.login(account), account.name),
    );
  },
  // Every spec runs with it: an uncaught error or unhandled rejection is a bug even when the
  // screen looks right (a toast that never came, a busy button that never ends).
  noUncaughtErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      context.on('weberror', (webError) => errors.push(String(webError.error())));
      await use();
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
