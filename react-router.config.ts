import type { Config } from '@react-router/dev/config';
import type { VitePluginPWAAPI } from 'vite-plugin-pwa';
import { paths } from './src/client/lib/paths.js';

/**
 * React Router's framework: the route table is src/client/app/routes.ts. No server rendering (the
 * Fastify API serves the built files); the screens that need no user data are prerendered at build
 * time, so they show before any script runs, and every other path gets the SPA fallback page. A
 * path with a parameter is prerendered as its pattern (`/details/product/:productId`): the page of
 * every product, its frame and placeholder with its own scripts, which the server serves for any
 * path of that shape.
 */
export default {
  appDirectory: 'src/client/app',
  buildDirectory: 'dist',
  ssr: false,
  // The signed-in layout's middleware decides on the session before any loader runs.
  future: { v8_middleware: true },
  prerender: [
    paths.products.list.path,
    paths.products.details.path,
    paths.auth.login.path,
    paths.auth.signup.path,
    paths.auth.confirmAccount.path,
    paths.auth.newCode.path,
    paths.auth.forgotPassword.path,
    paths.auth.resetPassword.path,
  ],
  /**
   * The service worker again, now that the pages are written: the PWA plugin generated it when the
   * client bundle closed, before the shell page (__spa-fallback.html) existed, which its precache
   * and navigation fallback need (vite.config.ts).
   */
  async buildEnd({ viteConfig }) {
    const plugin = viteConfig.plugins.find((each) => each.name === 'vite-plugin-pwa');
    const api = plugin?.api as VitePluginPWAAPI | undefined;
    if (!api || api.disabled) throw new Error('The PWA plugin is missing from vite.config.ts');
    await api.generateSW();
  },
} satisfies Config;
