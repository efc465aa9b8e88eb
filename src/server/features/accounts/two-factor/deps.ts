import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.js';
import type { DB } from '../../../infra/db/handle.js';
import type { Clock } from '../../../lib/clock.js';
import { Passkeys } from './passkeys.js';
import { RecoveryCodes } from './recovery-codes.js';
import type { TwoFactorDeps } from './sign-in.js';
import { Totp } from './totp.js';

/** The second factors of the app's configuration, over its database and clock. */
export const twoFactorDeps = (app: {
  db: DB;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
}): TwoFactorDeps => ({
  db: app.db,
  clock: app.clock,
  totp: new Totp(app.config.appSecret, (userId) =>
    app.log.error(
      { userId },
      "An authenticator's secret does not open with this server's APP_SECRET: was it changed, or a backup restored without DATA_DIR/secret.key? Its codes are refused.",
    ),
  ),
  recoveryCodes: new RecoveryCodes(app.config.appSecret),
  passkeys: new Passkeys({ publicUrl: app.config.publicUrl, corsOrigins: app.config.corsOrigins }),
});
