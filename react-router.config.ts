import type { Config } from '@react-router/dev/config';
import { paths } from './src/client/lib/paths.js';

/**
 * React Router's framework: the route table is src/client/app/routes.ts. No server rendering (the
 * Fastify API serves the built files); the screens that need no user data are prerendered at build
 * time, so they show before any script runs, and every other path gets the SPA fallback page.
 */
export default {
  appDirectory: 'src/client/app',
  buildDirectory: 'dist',
  ssr: false,
  prerender: [
    paths.products.list.path,
    paths.auth.login.path,
    paths.auth.signup.path,
    paths.auth.confirmAccount.path,
    paths.auth.newCode.path,
    paths.auth.forgotPassword.path,
    paths.auth.resetPassword.path,
  ],
} satisfies Config;
