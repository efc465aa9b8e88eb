// Relative, not @shared: React Router loads its config (which imports this) without our aliases.
import { DEV_MAILBOX_PAGE } from '../../shared/constants.js';

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

/** Where a shared catalogue's screens live: its list, and each screen under it. */
const inCatalogue = (catalogueId: string, rest = '') =>
  `/catalogues/${encodeURIComponent(catalogueId)}${rest}`;

/** `?name=value` or nothing. */
const query = (params: Record<string, string> | undefined) =>
  params ? `?${new URLSearchParams(params).toString()}` : '';

/**
 * Every products screen takes the catalogue last: none (the personal catalogue) keeps the
 * addresses it always had; a shared catalogue's screens are the same ones under
 * `/catalogues/:catalogueId/…`, so that links inside a catalogue stay inside it.
 */
export const paths = {
  products: {
    /** The list; its search, sort, stock filter and view live in the query string. */
    list: {
      path: '/',
      getHref: (catalogueId?: string) => (catalogueId ? inCatalogue(catalogueId) : '/'),
    },
    /** Create (the list's 'Add product' button). */
    create: {
      path: '/new/product',
      getHref: (catalogueId?: string) =>
        catalogueId ? inCatalogue(catalogueId, '/products/create') : '/new/product',
    },
    /** Create too (the empty list's 'Add new product' link). */
    add: {
      path: '/add/product',
      getHref: (catalogueId?: string) =>
        catalogueId ? inCatalogue(catalogueId, '/products/create') : '/add/product',
    },
    /** Products from a CSV file (the list's 'Import CSV' link). */
    import: {
      path: '/products/import',
      getHref: (catalogueId?: string) =>
        catalogueId ? inCatalogue(catalogueId, '/products/import') : '/products/import',
    },
    /** Quantities by location from a CSV file (the list's 'Import stock by location' link). */
    importStock: {
      path: '/products/stock-by-location/import',
      getHref: (catalogueId?: string) =>
        catalogueId
          ? inCatalogue(catalogueId, '/products/stock-by-location/import')
          : '/products/stock-by-location/import',
    },
    details: {
      path: '/details/product/:productId',
      getHref: (id: string, catalogueId?: string) =>
        catalogueId
          ? inCatalogue(catalogueId, `/products/${encodeURIComponent(id)}`)
          : `/details/product/${encodeURIComponent(id)}`,
    },
    edit: {
      path: '/edit/product/:productId',
      getHref: (id: string, catalogueId?: string) =>
        catalogueId
          ? inCatalogue(catalogueId, `/products/${encodeURIComponent(id)}/edit`)
          : `/edit/product/${encodeURIComponent(id)}`,
    },
  },
  /**
   * The camera and keyboard-scanner screen; `?code=` looks that code up at once (a code a
   * keyboard scanner typed on the list) and opens its product.
   */
  scan: {
    path: '/scan',
    getHref: (code?: string, catalogueId?: string) =>
      `${catalogueId ? inCatalogue(catalogueId) : ''}/scan${query(code ? { code } : undefined)}`,
    /** Receive against a purchase order: the screen opens in Receive with the order chosen. */
    receiveHref: (poId: string, catalogueId?: string) =>
      `${catalogueId ? inCatalogue(catalogueId) : ''}/scan${query({ po: poId })}`,
  },
  /**
   * A shared catalogue's screens, as the route table nests them under `root` (relative paths):
   * the same screens as the personal catalogue's, and its settings.
   */
  catalogue: {
    root: '/catalogues/:catalogueId',
    create: 'products/create',
    import: 'products/import',
    importStock: 'products/stock-by-location/import',
    details: 'products/:productId',
    edit: 'products/:productId/edit',
    scan: 'scan',
    reports: 'reports',
    locations: 'locations',
    location: 'locations/:locationId',
    counts: 'counts',
    count: 'counts/:countId',
    suppliers: 'suppliers',
    purchaseOrders: 'purchase-orders',
    purchaseOrder: 'purchase-orders/:poId',
    settings: {
      path: 'settings',
      /** `section` opens it at that part (its id): `invite` for inviting people. */
      getHref: (catalogueId: string, section?: 'invite') =>
        inCatalogue(catalogueId, section ? `/settings#${section}` : '/settings'),
    },
  },
  /**
   * Who changed what in a catalogue (the personal one at `/activity`); its filters live in the
   * query string.
   */
  activity: {
    path: '/activity',
    nested: 'activity',
    getHref: (catalogueId?: string, filters?: Record<string, string>) =>
      `${catalogueId ? inCatalogue(catalogueId) : ''}/activity${query(filters)}`,
  },
  /** The catalogue's stock reports (the user menu's 'Reports'). */
  reports: {
    path: '/reports',
    getHref: (catalogueId?: string) =>
      catalogueId ? inCatalogue(catalogueId, '/reports') : '/reports',
  },
  /** The catalogue's tree of locations (the user menu's 'Locations'), and one location's page. */
  locations: {
    list: {
      path: '/locations',
      getHref: (catalogueId?: string) =>
        catalogueId ? inCatalogue(catalogueId, '/locations') : '/locations',
    },
    location: {
      path: '/locations/:locationId',
      getHref: (id: string, catalogueId?: string) =>
        `${catalogueId ? inCatalogue(catalogueId) : ''}/locations/${encodeURIComponent(id)}`,
    },
  },
  /** The catalogue's stock counts (the user menu's 'Counts'), and one count's page. */
  counts: {
    list: {
      path: '/counts',
      getHref: (catalogueId?: string) =>
        catalogueId ? inCatalogue(catalogueId, '/counts') : '/counts',
    },
    count: {
      path: '/counts/:countId',
      getHref: (id: string, catalogueId?: string) =>
        `${catalogueId ? inCatalogue(catalogueId) : ''}/counts/${encodeURIComponent(id)}`,
    },
  },
  /** The catalogue's suppliers (the user menu's 'Suppliers'). */
  suppliers: {
    path: '/suppliers',
    getHref: (catalogueId?: string) =>
      catalogueId ? inCatalogue(catalogueId, '/suppliers') : '/suppliers',
  },
  /** The catalogue's purchase orders (the user menu's 'Purchase orders'), and one order's page. */
  purchaseOrders: {
    list: {
      path: '/purchase-orders',
      getHref: (catalogueId?: string) =>
        catalogueId ? inCatalogue(catalogueId, '/purchase-orders') : '/purchase-orders',
    },
    order: {
      path: '/purchase-orders/:poId',
      getHref: (id: string, catalogueId?: string) =>
        `${catalogueId ? inCatalogue(catalogueId) : ''}/purchase-orders/${encodeURIComponent(id)}`,
    },
  },
  /** My catalogues, and a new one. */
  catalogues: fixed('/catalogues'),
  /** The invitations waiting for me (the invitation mail links here). */
  invitations: fixed('/invitations'),
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
    /** Two-factor sign-in, passkeys and the account's sessions. */
    security: fixed('/profile/security'),
  },
  devMailbox: fixed(DEV_MAILBOX_PAGE),
} as const;
