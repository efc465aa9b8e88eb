/**
 * The shared zod schemas, loaded on demand: the auth screens render without zod, which arrives
 * with the first validation or request (see lib/form.ts and lib/api-client.ts).
 */
export const loadAuthSchemas = () => import('@shared/schemas/auth.js');

export const messageResponse = () =>
  import('@shared/schemas/common.js').then((m) => m.messageSchema);

export const tokenResponse = () => loadAuthSchemas().then((m) => m.tokenResponseSchema);

type AuthSchemas = Awaited<ReturnType<typeof loadAuthSchemas>>;

/** A loader of one schema of shared/schemas/auth.ts, for useZodForm. */
export const authSchema =
  <K extends keyof AuthSchemas>(name: K) =>
  () =>
    loadAuthSchemas().then((schemas) => schemas[name]);
