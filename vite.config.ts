import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

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
 * on (lib/, components/, the layouts' parts); and the login form with what it needs (the form
 * library among it) in another, the first visit's usual screen. The other account screens' code
 * comes with their route modules, not on the login page. Left to Rollup they are dozens of chunks under a kilobyte, each paying its response
 * headers on the wire (about half a kilobyte apiece). What only some screens use stays out: the
 * form library's modules, the HTTP client, the signed-in screens' controls and infinite lists,
 * the offline stock queue's IndexedDB part.
 */
const SHELL =
  /[\\/](src[\\/]client[\\/](lib|components|app[\\/]components|app[\\/]layouts)|node_modules[\\/](react|react-dom|react-router|scheduler))[\\/]/;
const NOT_SHELL =
  /[\\/](lib[\\/](form|axios-instance|stock-queue[\\/]queue)\.ts|(FormField|NewPasswordFields|Menu|UserMenu|CodeInput|DropZone|ProgressBar|Table|Segmented|ProfileLayout)\.tsx|infiniteQuery\w*\.js)$/;
const LOGIN_FORM = /[\\/]src[\\/]client[\\/]features[\\/]auth[\\/]components[\\/]LoginForm\.tsx$/;
/**
 * TanStack Query and what stands on it, apart: the screens that read data load it, the login page
 * (a first visit's, signed out) does not. With it, the product parts that the list, a product and
 * its edit form all show (the stock stepper, a load error, the list's place), and the cache
 * helpers and the offline stock queue's light part that they use: one response for the signed-in
 * list instead of four.
 */
const QUERIES =
  /[\\/](node_modules[\\/]@tanstack[\\/].*|lib[\\/](query-client|product-cache|stock-queue[\\/](index|pending)|auth[\\/](session|get-user|logout))\.ts|(WithQueries|SignedInCheck|UserMenu|MainLayout)\.tsx|features[\\/]products[\\/](components[\\/](StockStepper\.tsx|PendingStock\.tsx|StockBadges\.tsx|PrintLabelsButton\.tsx|ProductLoadError\.tsx|list-place\.ts)|api[\\/](print-labels|adjust-stock)\.ts)|shared[\\/]labels\.ts)$/;
/**
 * zod and the shared schemas in one chunk: each loads on demand (lib/lazy-schemas.ts), and the
 * signed-in list reads with four of them, each its own response when Rollup splits them. The login
 * page loads none of them before its form is used.
 */
const SCHEMAS = /[\\/](node_modules[\\/]zod[\\/].*|src[\\/]shared[\\/]schemas[\\/][^\\/]+\.ts)$/;
const chunkOf = (id: string) => {
  if (QUERIES.test(id)) return 'queries';
  if (SCHEMAS.test(id)) return 'schemas';
  if (SHELL.test(id) && !NOT_SHELL.test(id)) return 'shell';
  if (LOGIN_FORM.test(id)) return 'account';
  return undefined;
};

export default defineConfig({
  publicDir: 'src/client/public',
  // React Router's framework (react-router.config.ts): the route modules, prerendering, and fast
  // refresh in development.
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    alias: [
      ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
      styleFreeSweetAlert,
    ],
  },
  build: {
    sourcemap: false,
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
