import type { Config } from '../../../config.js';
import type { DB } from '../../../infra/db/handle.js';
import type { Clock } from '../../../lib/clock.js';
import { Passkeys } from './passkeys.js';
import { RecoveryCodes } from './recovery-codes.js';
import type { TwoFactorDeps } from './sign-in.js';
import { Totp } from './totp.js';

/** The second factors of the app's configuration, over its database and clock. */
export const twoFactorDeps = (app: { db: DB; clock: Clock; config: Config }): TwoFactorDeps => ({
  db: app.db,
  clock: app.clock,
  totp: new Totp(app.config.appSecret),
  recoveryCodes: new RecoveryCodes(app.config.appSecret),
  passkeys: new Passkeys({ publicUrl: app.config.publicUrl, corsOrigins: app.config.corsOrigins }),
});
