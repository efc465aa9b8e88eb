import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { IMAGE_CACHE_NAME } from './src/shared/constants.js';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://127.0.0.1:3000';

/** `@/…` is src/client, `@shared/…` is src/shared (the same paths as tsconfig.json). */
export const alias = {
  '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
  '@': fileURLToPath(new URL('./src/client', import.meta.url)),
};

/**
 * SweetAlert2's build without built-in styles (its stylesheet is imported as a file where it is
 * used): the default build injects a <style> element, which the app's Content-Security-Policy
 * (style-src 'self') refuses. Only the app gets it: the component tests mock 'sweetalert2'.
 */
const styleFreeSweetAlert = {
  find: /^sweetalert2$/,
  replacement: 'sweetalert2/dist/sweetalert2.esm.js',
};

/**
 * Which chunk a module goes into, by the folder it sits in: the first folder that holds it
 * decides (a deeper folder is listed before the folder around it). A folder named with no chunk
 * stays out of every named chunk, for Rollup to place with the screens that use it. A module in
 * a named chunk brings its own imports along unless they are named elsewhere.
 *
 * - `shell`: React, React Router and the shared client code every screen stands on (lib/,
 *   components/ui/, the layouts' parts, the role and reorder rules). Left to Rollup they are dozens of chunks
 *   under a kilobyte, each paying its response headers on the wire (about half a kilobyte apiece).
 * - `queries`: TanStack Query and what stands on it, which the login page (a first visit's,
 *   signed out) does not load: the cache, the session's data sets, the stock changes' light part,
 *   the signed-in frame's parts, the product parts the list, a product and its edit form all show,
 *   and the header's catalogue switcher: one response for the signed-in list instead of five.
 * - `schemas`: zod and the shared schemas, each loaded on demand (lib/lazy-schemas.ts) but read
 *   together by the signed-in list. The few that only one screen reads (the activity log, the
 *   reports, the labels, the webhooks, the local mailbox, the live events, locations, counts,
 *   purchasing) are named to stay with it.
 * - `account`: the login form, the first visit's usual screen, with the form library.
 * - Out of them: the form library's helpers, the HTTP client (with the first request), dialogs,
 *   form and list controls, the offline queue's IndexedDB part, and the moves and location
 *   pickers, loaded by what uses them.
 */
const CHUNK_FOLDERS: readonly (readonly [place: string, chunk: string | undefined])[] = [
  ['src/client/lib/stock-change/offline/', undefined],
  // Counts and purchase orders: their screens, /scan and a queued line or receipt load them.
  ['src/client/lib/stock-change/count-line', undefined],
  ['src/client/lib/stock-change/receipts/', undefined],
  ['src/client/lib/counts/', undefined],
  ['src/client/lib/purchasing/', undefined],
  ['src/client/components/purchasing/', undefined],
  // Moves and locations: the screens that move stock or pick a location load them.
  ['src/client/lib/stock-change/moves/', undefined],
  ['src/client/lib/locations/', undefined],
  ['src/client/components/locations/', undefined],
  ['src/client/lib/forms/', undefined],
  ['src/client/lib/http/', undefined],
  ['src/client/components/dialogs/', undefined],
  ['src/client/components/forms/', undefined],
  ['src/client/components/controls/', undefined],
  ['src/client/lib/query/', 'queries'],
  ['src/client/lib/session/', 'queries'],
  ['src/client/lib/catalogues/', 'queries'],
  ['src/client/lib/stock-change/', 'queries'],
  ['src/client/app/components/signed-in/', 'queries'],
  ['src/client/app/layouts/signed-in/', 'queries'],
  // Labels are printed from a product's page or a selection, never from the list as it opens.
  ['src/client/features/products/components/common/PrintLabelsButton.tsx', undefined],
  ['src/client/features/products/components/common/', 'queries'],
  // The products' write hook, which the list's delete buttons use: a chunk of its own otherwise.
  ['src/client/features/products/api/product-write.ts', 'queries'],
  // The list's pages, which a location's page reads too: a chunk of its own otherwise.
  ['src/client/features/products/api/get-products.ts', 'queries'],
  ['src/client/features/catalogues/components/header/', 'queries'],
  ['node_modules/@tanstack/', 'queries'],
  ['node_modules/idb-keyval/', 'queries'],
  ['src/shared/schemas/activity.ts', undefined],
  ['src/shared/schemas/reports.ts', undefined],
  ['src/shared/schemas/labels.ts', undefined],
  ['src/shared/schemas/dev-mail.ts', undefined],
  ['src/shared/schemas/live-events.ts', undefined],
  ['src/shared/schemas/idempotency.ts', undefined],
  ['src/shared/schemas/webhooks/', undefined],
  // The locations' and moves' shapes: the screens that read them load them, not the list.
  ['src/shared/schemas/locations/', undefined],
  // Counts' and purchasing's shapes: their screens and queued requests load them on demand.
  ['src/shared/schemas/counts/', undefined],
  ['src/shared/schemas/purchasing/', undefined],
  // Passkeys, two-factor sign-in, sessions and preferences: the security screen and the sign-in's
  // second step read them, never the list.
  ['src/shared/schemas/passkeys.ts', undefined],
  ['src/shared/schemas/two-factor.ts', undefined],
  ['src/shared/schemas/sessions.ts', undefined],
  ['src/shared/schemas/preferences.ts', undefined],
  ['src/shared/schemas/', 'schemas'],
  ['node_modules/zod/', 'schemas'],
  ['src/client/features/auth/components/login/', 'account'],
  ['src/client/lib/', 'shell'],
  ['src/client/components/', 'shell'],
  ['src/client/app/components/', 'shell'],
  ['src/client/app/layouts/', 'shell'],
  ['src/shared/catalogue-roles.ts', 'shell'],
  // The reorder rule: the stock badges (queries) and the product schemas (schemas) both read it.
  ['src/shared/reorder.ts', 'shell'],
  ['node_modules/react/', 'shell'],
  ['node_modules/react-dom/', 'shell'],
  ['node_modules/react-router/', 'shell'],
  ['node_modules/scheduler/', 'shell'],
];

const root = fileURLToPath(new URL('.', import.meta.url));

/** The chunk of a module by its place in the project (or in node_modules, wherever that is). */
function chunkOf(id: string): string | undefined {
  const file = id.split(path.sep).join('/');
  const inProject = file.startsWith(root) ? file.slice(root.length) : file;
  const packageAt = inProject.lastIndexOf('node_modules/');
  const place = packageAt >= 0 ? inProject.slice(packageAt) : inProject;
  return CHUNK_FOLDERS.find(([folder]) => place.startsWith(folder))?.[1];
}

/** The page React Router's build writes for every path it does not prerender: the app's shell. */
export const SHELL_PAGE = '/__spa-fallback.html';

const THIRTY_DAYS_S = 30 * 24 * 60 * 60;

/**
 * The installable app: the web app manifest and a Workbox service worker (generateSW) that
 * precaches every route's JavaScript and CSS, the scanner's WebAssembly, the icons and the shell
 * page, and answers every navigation with that shell, so that each screen opens offline after one
 * visit. API answers are never stored by it (the data a user saw is kept by the query cache, per
 * user, lib/query-persistence.ts), except pictures, whose unguessable names are their only key:
 * a bounded cache of its own, emptied when a session ends. A new version waits ('prompt') until the
 * user takes it (lib/service-worker.ts): code is never swapped under a half-filled form. The
 * registration is our own, after the page has loaded (injectRegister off). The shell page is
 * written by React Router after this plugin's own build step: react-router.config.ts generates the
 * worker again then.
 */
const pwa = VitePWA({
  strategies: 'generateSW',
  registerType: 'prompt',
  injectRegister: false,
  manifestFilename: 'manifest.webmanifest',
  manifest: {
    name: 'Stockroom',
    short_name: 'Stockroom',
    description: 'Keep track of your product inventory.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#111827',
    background_color: '#f3f4f6',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  // The icons are in the manifest above; the plugin need not add them to the precache twice.
  includeManifestIcons: false,
  workbox: {
    // Only the shell page among the HTML files: the prerendered pages are not served by their file
    // names, and the shell renders every path. Compressed twins (.br, .gz) are the server's affair.
    // robots.txt keeps the first generation (before the shell page exists) from warning that the
    // pattern matches nothing.
    globPatterns: ['assets/**/*.{js,css,wasm}', 'icons/*.png', '{__spa-fallback.html,robots.txt}'],
    // The barcode reader's WebAssembly is a few megabytes; without it the scan screen is dead offline.
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    dontCacheBustURLsMatching: /^assets\//,
    navigateFallback: SHELL_PAGE,
    navigateFallbackDenylist: [/^\/api(\/|$)/],
    cleanupOutdatedCaches: true,
    // The first visit's page is taken under control at once (its pictures cached from then on);
    // an update still waits for the user (no skipWaiting).
    clientsClaim: true,
    runtimeCaching: [
      {
        urlPattern: ({ url }) => url.pathname.startsWith('/api/images/'),
        handler: 'CacheFirst',
        options: {
          cacheName: IMAGE_CACHE_NAME,
          expiration: { maxEntries: 200, maxAgeSeconds: THIRTY_DAYS_S, purgeOnQuotaError: true },
          cacheableResponse: { statuses: [200] },
        },
      },
    ],
  },
});

export default defineConfig({
  publicDir: 'src/client/public',
  // React Router's framework (react-router.config.ts): the route modules, prerendering, and fast
  // refresh in development.
  plugins: [tailwindcss(), reactRouter(), pwa],
  resolve: {
    alias: [
      ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
      styleFreeSweetAlert,
    ],
  },
  build: {
    sourcemap: false,
    // Terser's second pass takes a few percent more off the first visit's JavaScript than
    // esbuild's minifier, which keeps the signed-in list within its budget.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    rollupOptions: {
      output: { manualChunks: chunkOf },
      onwarn(warning, warn) {
        const fromPackage = (name: string) =>
          new RegExp(`[\\\\/]node_modules[\\\\/]${name}[\\\\/]`).test(warning.id ?? '');
        // zod's published files put comments that mention `@__PURE__` where Rollup expects an
        // annotation (zod/v4/core/util.js, regexes.js); Rollup drops those comments and warns on
        // every build. Nothing to act on in our code, so exactly that warning, for zod, goes.
        if (warning.code === 'INVALID_ANNOTATION' && fromPackage('zod')) return;
        // "use client" marks modules for React Server Components; in a browser-only bundle it means
        // nothing, and Rollup says so for every library module that carries it (React's Vite
        // plugin used to silence it the same way).
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use client"')) {
          return;
        }
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    // The browser's own Host goes through: the development mailbox checks it (see src/server/dev.ts).
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});
