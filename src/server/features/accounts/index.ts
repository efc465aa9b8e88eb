/**
 * What other parts of the server may use of the accounts feature; the rest of this folder is its
 * own (eslint.config.js fences it off).
 */
export { accountsPlugin } from './plugin.js';
export { profileRoutes } from './routes/profile.js';
export { preferenceRoutes } from './routes/preferences.js';
export { passkeyRoutes } from './routes/passkeys.js';
export { secondStepRoutes } from './routes/second-step.js';
export { twoFactorRoutes } from './routes/two-factor.js';
export { deviceSessionRoutes } from './routes/device-sessions.js';
export { accountDataRoutes } from './routes/account-data.js';
export { sessionRoutes, signInRoutes } from './routes/auth.js';
export type { SessionUser } from './sessions.js';
export { countedRequests, fitsMailBudget } from './mail-budget.js';
