import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { newAccount, type Account } from './accounts.js';
import { Api, type ApiProduct, type NewProduct } from './api.js';
import { signInWithToken } from './ui.js';

interface Options {
  /** The name `user` signs up with (`test.use({ userName })`); a random one by default. */
  userName: string | undefined;
}

interface Fixtures {
  /** Fresh credentials nobody has signed up with. */
  account: Account;
  /** The API, for setup that is not the thing under test. */
  api: Api;
  /** A confirmed account, signed up through the API with the code from the mail. */
  user: Account;
  /** A bearer token of `user`, from an API login. */
  token: string;
  /** Adds a product to `user`'s catalogue through the API. */
  createProduct: (product: NewProduct) => Promise<ApiProduct>;
  /**
   * Opens the product list signed in (API login; the login screen has its own tests): as `user`
   * on the test's `page` unless told otherwise.
   */
  signIn: (account?: Account, page?: Page) => Promise<void>;
}

export const test = base.extend<Fixtures & Options>({
  userName: [undefined, { option: true }],
  // eslint-disable-next-line no-empty-pattern
  account: async ({}, use) => {
    await use(newAccount());
  },
  api: async ({ request }, use) => {
    await use(new Api(request));
  },
  user: async ({ api, userName }, use) => {
    const account = newAccount();
    await use(await api.signUpAndConfirm(userName ? { ...account, name: userName } : account));
  },
  token: async ({ api, user }, use) => {
    await use(await api.login(user));
  },
  createProduct: async ({ api, token }, use) => {
    await use((product) => api.createProduct(token, product));
  },
  signIn: async ({ api, page, user }, use) => {
    await use(async (account = user, on = page) =>
      signInWithToken(on, await api.login(account), account.name),
    );
  },
  // Every spec runs with it: an uncaught error or unhandled rejection is a bug even when the
  // screen looks right (a toast that never came, a busy button that never ends). On the context
  // itself rather than an automatic fixture: a test that opens no page of it (one that only calls
  // the API, or opens contexts of its own) then has Playwright create no context it never uses.
  context: async ({ context }, use) => {
    const errors = uncaughtErrorsOf(context);
    await use(context);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

/**
 * The uncaught errors and unhandled rejections of a browser context's pages, as they come: a
 * fixture that opens a context of its own checks them as the `context` fixture does the test's.
 */
export function uncaughtErrorsOf(context: BrowserContext): string[] {
  const errors: string[] = [];
  context.on('weberror', (webError) => errors.push(String(webError.error())));
  return errors;
}

export { expect };
