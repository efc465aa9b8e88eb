import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
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

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [
      ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
      styleFreeSweetAlert,
    ],
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    port: 5173,
    // The browser's own Host goes through: the development mailbox checks it (see src/server/dev.ts).
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});
