import { isIP } from 'node:net';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { A } from '../../../../shared/account-messages.js';
import { keepOnSuccess } from '../../../../shared/keep-on-success.js';
import type { Assertion } from '../../../../shared/schemas/passkeys.js';
import type { DB } from '../../../infra/db/handle.js';
import type { PasskeysTable } from '../../../infra/db/schema-accounts.js';
import { HttpError } from '../../../lib/http-error.js';
import { challenges, type Challenge } from './challenges.js';

// Certificates and CBOR for a few requests a day: loaded by the first passkey request.
const webauthn = keepOnSuccess(() => import('@simplewebauthn/server'));

const RP_NAME = 'Stockroom';
const TIMEOUT_MS = 5 * 60_000;

export interface PasskeySettings {
  /** The server's origin (PUBLIC_URL), and other origins the app is served from. */
  publicUrl: string;
  corsOrigins: readonly string[];
}

/** A passkey as the API shows it. */
export const presentPasskey = (row: PasskeysTable) => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  synced: row.backed_up === 1,
});

const transportsOf = (row: Pick<PasskeysTable, 'transports'>) =>
  JSON.parse(row.transports) as AuthenticatorTransport[];

/**
 * Passkeys (WebAuthn) through SimpleWebAuthn: registered from a signed-in session, then used as
 * a sign-in's second step or to sign in without a password. The relying party is PUBLIC_URL's
 * host; browsers take no IP address for it, so passkeys need a domain name (localhost counts).
 */
export class Passkeys {
  private readonly rpId: string;
  private readonly origins: string[];

  constructor(settings: PasskeySettings) {
    const url = new URL(settings.publicUrl);
    this.rpId = url.hostname;
    this.origins = [url.origin, ...settings.corsOrigins];
  }

  private usable() {
    if (isIP(this.rpId.replace(/^\[|\]$/g, '')) !== 0)
      throw new HttpError(409, A.passkeysNeedDomain);
  }

  async list(db: DB, userId: string) {
    return db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  async registrationOptions(
    db: DB,
    user: { id: string; name: string; email: string },
    now: number,
  ) {
    this.usable();
    const { generateRegistrationOptions } = await webauthn();
    const existing = await this.list(db, user.id);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: this.rpId,
      userName: user.email,
      userDisplayName: user.name,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      timeout: TIMEOUT_MS,
      excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
      // Kept on the authenticator, so that it can sign in without a name or password.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const id = await challenges.create(db, now, 'passkey-registration', user.id, options.challenge);
    return { challengeId: id, options };
  }

  /** Verifies a new passkey against its registration's challenge and keeps it. */
  async register(
    db: DB,
    userId: string,
    challengeId: string,
    response: RegistrationResponseJSON,
    name: string,
    now: number,
  ): Promise<PasskeysTable> {
    this.usable();
    const challenge = await challenges.find(db, challengeId, 'passkey-registration', now);
    if (!challenge || challenge.userId !== userId || !challenge.webauthnChallenge) {
      throw new HttpError(400, A.signInExpired);
    }
    const { verifyRegistrationResponse } = await webauthn();
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge.webauthnChallenge,
      expectedOrigin: this.origins,
      expectedRPID: this.rpId,
      requireUserVerification: false,
    }).catch(() => undefined);
    if (!verified?.verified || !(await challenges.consume(db, challenge.idHash))) {
      throw new HttpError(400, A.passkeyRefused);
    }
    const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    const row: PasskeysTable = {
      id: credential.id,
      user_id: userId,
      name,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? response.response.transports ?? []),
      device_type: credentialDeviceType,
      backed_up: credentialBackedUp ? 1 : 0,
      created_at: now,
      last_used_at: null,
    };
    await db.insertInto('passkeys').values(row).execute();
    return row;
  }

  /**
   * Options to sign a challenge with: for a sign-in's second step (the passkeys of its account,
   * on its challenge), or for a sign-in without a password (any passkey kept on the device).
   */
  async authenticationOptions(db: DB, secondStep: Challenge | undefined) {
    this.usable();
    const { generateAuthenticationOptions } = await webauthn();
    const allowed = secondStep?.userId ? await this.list(db, secondStep.userId) : [];
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      timeout: TIMEOUT_MS,
      allowCredentials: allowed.map((row) => ({ id: row.id, transports: transportsOf(row) })),
      // Without a password the passkey stands for both factors: the device must check its owner.
      userVerification: secondStep ? 'preferred' : 'required',
    });
    return { options, webauthnChallenge: options.challenge };
  }

  /**
   * Verifies a signature of the challenge by one of the account's passkeys (any account's when
   * `userId` is null: a sign-in without a password) and moves its counter on. The account's id,
   * or undefined when the passkey is unknown, not the account's, or the signature does not hold.
   */
  async verify(
    db: DB,
    challenge: Challenge,
    assertion: Assertion,
    now: number,
  ): Promise<string | undefined> {
    this.usable();
    if (!challenge.webauthnChallenge) return undefined;
    const row = await db
      .selectFrom('passkeys')
      .selectAll()
      .where('id', '=', assertion.id)
      .$if(challenge.userId !== null, (q) => q.where('user_id', '=', challenge.userId!))
      .executeTakeFirst();
    if (!row) return undefined;
    const { verifyAuthenticationResponse } = await webauthn();
    const verified = await verifyAuthenticationResponse({
      response: assertion as AuthenticationResponseJSON,
      expectedChallenge: challenge.webauthnChallenge,
      expectedOrigin: this.origins,
      expectedRPID: this.rpId,
      credential: {
        id: row.id,
        publicKey: Buffer.from(row.public_key, 'base64url'),
        counter: Number(row.counter),
        transports: transportsOf(row),
      },
      requireUserVerification: challenge.userId === null,
    }).catch(() => undefined);
    if (!verified?.verified) return undefined;
    await db
      .updateTable('passkeys')
      .set({ counter: verified.authenticationInfo.newCounter, last_used_at: now })
      .where('id', '=', row.id)
      .execute();
    return row.user_id;
  }
}
