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
 * The app's shell in one chunk: React, React Router and the shared client code every screen stands
 * on (lib/, components/, the layouts' parts, the catalogue role rule); and the login form with what it needs (the form
 * library among it) in another, the first visit's usual screen. The other account screens' code
 * comes with their route modules, not on the login page. Left to Rollup they are dozens of chunks under a kilobyte, each paying its response
 * headers on the wire (about half a kilobyte apiece). What only some screens use stays out: the
 * form library's modules, the HTTP client, the signed-in screens' controls and infinite lists,
 * the offline stock queue's IndexedDB part.
 */
const SHELL =
  /[\\/](src[\\/]client[\\/](lib|components|app[\\/]components|app[\\/]layouts)|node_modules[\\/](react|react-dom|react-router|scheduler))[\\/]|[\\/]src[\\/]shared[\\/]catalogue-roles\.ts$/;
const NOT_SHELL =
  /[\\/](lib[\\/](form|axios-instance|stock-change[\\/]queue)\.ts|confirm-dialog\.(ts|css)|(FormField|NewPasswordFields|Menu|UserMenu|CodeInput|DropZone|ProgressBar|Table|Segmented|ProfileLayout)\.tsx|infiniteQuery\w*\.js)$/;
const LOGIN_FORM = /[\\/]src[\\/]client[\\/]features[\\/]auth[\\/]components[\\/]LoginForm\.tsx$/;
/**
 * TanStack Query and what stands on it, apart: the screens that read data load it, the login page
 * (a first visit's, signed out) does not. With it, the product parts that the list, a product and
 * its edit form all show (the stock stepper, a load error, the list's place), and the cache
 * helpers and the offline stock queue's light part that they use, and the header's catalogue
 * switcher with the catalogues it names: one response for the signed-in list instead of five.
 */
const QUERIES =
  /[\\/](node_modules[\\/](@tanstack[\\/].*|idb-keyval[\\/].*)|lib[\\/](query-client|query-persistence|image-cache|product-cache|stock-change[\\/](index|pending|send|request|use-change-stock)|auth[\\/](session|get-user|logout))\.ts|(WithQueries|WithPersistedQueries|OfflineDataMark|SignedInCheck|UserMenu|MainLayout)\.tsx|features[\\/]products[\\/](components[\\/](StockStepper\.tsx|PendingStock\.tsx|StockBadges\.tsx|PrintLabelsButton\.tsx|ProductLoadError\.tsx|list-place\.ts)|api[\\/]print-labels\.ts)|features[\\/]catalogues[\\/](components[\\/](CatalogueSwitcher|InvitationsLink)\.tsx|api[\\/]get-invitations\.ts)|lib[\\/]catalogues[\\/][\w-]+\.tsx?|shared[\\/]labels\.ts)$/;
/**
 * zod and the shared schemas in one chunk: each loads on demand (lib/lazy-schemas.ts), and the
 * signed-in list reads with four of them, each its own response when Rollup splits them. The login
 * page loads none of them before its form is used. Those of the activity log, the reports, the
 * labels and the local mailbox stay with their screens: the list never reads them.
 */
const SCHEMAS =
  /[\\/](node_modules[\\/]zod[\\/].*|src[\\/]shared[\\/]schemas[\\/](?!(activity|reports|labels|dev-mail|live-events|idempotency)\.ts$)[^\\/]+\.ts)$/;
const chunkOf = (id: string) => {
  if (QUERIES.test(id)) return 'queries';
  if (SCHEMAS.test(id)) return 'schemas';
  if (SHELL.test(id) && !NOT_SHELL.test(id)) return 'shell';
  if (LOGIN_FORM.test(id)) return 'account';
  return undefined;
};

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
