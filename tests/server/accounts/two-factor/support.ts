import { expect } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { A } from '../../../../src/shared/account-messages.js';
import { accounts, type ApiResponse, type SignedIn } from '../../support/accounts.js';
import type { TestServer } from '../../support/build.js';

const STEP_MS = 30_000;

/** The authenticator app of a test: codes of any moment, from the secret the server gave. */
export function authenticator(secret: string, server: TestServer) {
  const key = Secret.fromBase32(secret);
  return {
    /** The code for the server's now, moved by whole steps. */
    code: (steps = 0) =>
      TOTP.generate({ secret: key, timestamp: server.clock.now() + steps * STEP_MS }),
  };
}

/** Moves the server's clock to the start of the next 30-second step. */
export const nextStep = (server: TestServer) =>
  server.clock.advance(STEP_MS - (server.clock.now() % STEP_MS));

export interface TwoFactorAccount extends SignedIn {
  app: ReturnType<typeof authenticator>;
  recoveryCodes: string[];
}

/** The two-factor steps of a test, over inject. */
export function twoFactor(server: TestServer) {
  const steps = accounts(server);
  const { api } = steps;
  const self = {
    steps,
    start: (token: string) => api({ url: '/api/auth/mfa/totp', token }),
    confirm: (token: string, code: string) =>
      api({ url: '/api/auth/mfa/totp/confirm', token, body: { code } }),
    turnOff: (token: string, password: string, code: string) =>
      api({ method: 'DELETE', url: '/api/auth/mfa/totp', token, body: { password, code } }),
    status: (token: string) => api({ method: 'GET', url: '/api/auth/mfa', token }),
    loginMfa: (body: Record<string, unknown>) => api({ url: '/api/auth/login/mfa', body }),

    /** A signed-in account with two-factor sign-in on. */
    async account(): Promise<TwoFactorAccount> {
      const account = await steps.signedIn();
      const started = await self.start(account.token);
      expect(started.status).toBe(200);
      const { secret } = JSON.parse(started.text) as { secret: string };
      const app = authenticator(secret, server);
      const confirmed = await self.confirm(account.token, app.code());
      expect(confirmed.status, confirmed.text).toBe(200);
      const { recoveryCodes } = JSON.parse(confirmed.text) as { recoveryCodes: string[] };
      // The code of set-up is used: the account's first sign-in comes a step later.
      nextStep(server);
      return { ...account, app, recoveryCodes };
    },

    /** Logs in with the password: the second step's challenge. */
    async challenge(account: { email: string; password: string }): Promise<string> {
      const res = await steps.loginWith(account.email, account.password);
      const body = JSON.parse(res.text) as { mfa?: { challengeId: string } };
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 200,
        message: A.secondStepNeeded,
      });
      return body.mfa!.challengeId;
    },
  };
  return self;
}

export const tokenOf = (res: ApiResponse) => (JSON.parse(res.text) as { token: string }).token;
