import { cachedImport } from './lazy-import.js';

/**
 * The shared zod schemas, loaded on demand: the auth screens render without zod, which arrives
 * with the first validation or request (see lib/forms/form.ts and lib/api-client.ts).
 */
export const loadAuthSchemas = cachedImport(() => import('@shared/schemas/auth.js'));

const loadCommonSchemas = cachedImport(() => import('@shared/schemas/common.js'));

export const messageResponse = () => loadCommonSchemas().then((m) => m.messageSchema);

export const tokenResponse = () => loadAuthSchemas().then((m) => m.tokenResponseSchema);

export const loginResponse = () => loadAuthSchemas().then((m) => m.loginResponseSchema);

type AuthSchemas = Awaited<ReturnType<typeof loadAuthSchemas>>;

/** A loader of one schema of shared/schemas/auth.ts, for useZodForm. */
export const authSchema =
  <K extends keyof AuthSchemas>(name: K) =>
  () =>
    loadAuthSchemas().then((schemas) => schemas[name]);
