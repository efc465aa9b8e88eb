import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://127.0.0.1:3000';

/** `@/…` is src/client, `@shared/…` is src/shared (the same paths as tsconfig.json). */
export const alias = {
  '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
  '@': fileURLToPath(new URL('./src/client', import.meta.url)),
};

/**
 * Preact runs the app: React's own names resolve to preact/compat, for the app and for every
 * library that imports React (React Router, TanStack Query, react-hook-form, react-toastify). React
 * DOM alone was 50 KB of brotli, more than half the login page's budget (ADR 010). The types stay
 * React's (@types/react): preact/compat implements that API, and the component tests run on the
 * same aliases (vitest.config.ts), so they test what ships.
 */
export const reactToPreact = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/**
 * JSX compiles to `react/jsx-runtime` calls (as tsconfig.json types it), which the aliases above
 * send to Preact's runtime. esbuild does it: no React plugin, whose fast refresh only knows React
 * (in development an edit reloads the page).
 */
export const jsx = { jsx: 'automatic', jsxImportSource: 'react' } as const;

/**
 * SweetAlert2's build without built-in styles (its stylesheet is imported as a file where it is
 * used): the default build injects a <style> element, which the app's Content-Security-Policy
 * (style-src 'self') refuses. Only the app gets it: the component tests mock 'sweetalert2'.
 */
const styleFreeSweetAlert = {
  find: /^sweetalert2$/,
  replacement: 'sweetalert2/dist/sweetalert2.esm.js',
};

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [tailwindcss()],
  esbuild: jsx,
  resolve: {
    alias: [
      ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
      ...reactToPreact,
      styleFreeSweetAlert,
    ],
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
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
