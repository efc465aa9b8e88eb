/**
 * Every screen's address, in one place. `path` is the pattern the router matches
 * (app/routes.ts); `getHref` builds a link to the screen. Components link and navigate with
 * `getHref`, never with a written string, so that a screen can move by changing one line here.
 */

/** A screen whose address has no parameters. */
const fixed = <P extends string>(path: P) => ({ path, getHref: () => path });

/** An auth screen that carries the e-mail along as ?email=, as the mail links do. */
const withEmail = <P extends string>(path: P) => ({
  path,
  getHref: (email?: string) =>
    email ? `${path}?${new URLSearchParams({ email }).toString()}` : path,
});

export const paths = {
  products: {
    /** The list; its search, sort, stock filter and view live in the query string. */
    list: fixed('/'),
    /** Create (the list's 'Add product' button). */
    create: fixed('/new/product'),
    /** Create too (the empty list's 'Add new product' link). */
    add: fixed('/add/product'),
    /** Products from a CSV file (the list's 'Import CSV' link). */
    import: fixed('/products/import'),
    details: {
      path: '/details/product/:productId',
      getHref: (id: string) => `/details/product/${encodeURIComponent(id)}`,
    },
    edit: {
      path: '/edit/product/:productId',
      getHref: (id: string) => `/edit/product/${encodeURIComponent(id)}`,
    },
  },
  /**
   * The camera and keyboard-scanner screen; `?code=` looks that code up at once (a code a
   * keyboard scanner typed on the list) and opens its product.
   */
  scan: {
    path: '/scan',
    getHref: (code?: string) =>
      code ? `/scan?${new URLSearchParams({ code }).toString()}` : '/scan',
  },
  auth: {
    root: fixed('/auth'),
    login: {
      path: '/auth/login',
      /** With the way back to `next` (path and search) unless that is the list. */
      getHref: (next?: string) =>
        next === undefined || next === '/'
          ? '/auth/login'
          : `/auth/login?${new URLSearchParams({ next }).toString()}`,
    },
    signup: fixed('/auth/signup'),
    confirmAccount: withEmail('/auth/confirm-account'),
    newCode: withEmail('/auth/new-code'),
    forgotPassword: withEmail('/auth/forgot-password'),
    resetPassword: withEmail('/auth/reset-password'),
  },
  profile: {
    edit: fixed('/profile'),
    changePassword: fixed('/profile/new-password'),
  },
  devMailbox: fixed('/dev/mailbox'),
} as const;
