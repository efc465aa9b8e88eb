import { RECOVERY_CODE_COUNT } from './two-factor.js';

/**
 * The texts of the account's own settings beyond the spec's screens: preferences, two-factor
 * sign-in, passkeys, sessions, deleting the account. Word for word here or nowhere, like
 * messages.ts.
 */
export const A = {
  preferencesSaved: 'Preferences saved',
  // two-factor sign-in
  secondStepNeeded: 'Password accepted. Finish logging in with your second step.',
  signInExpired: 'This sign-in has expired or was tried too often: log in again.',
  totpCodeInvalid: 'Enter the 6-digit code from your authenticator app',
  totpCodeWrong: 'That code is not right: enter the current code from your authenticator app',
  recoveryCodeWrong: 'That recovery code is not right, or it was used already',
  secondFactorCodeWrong: 'That code is not right: enter a current code or an unused recovery code',
  oneSecondStep: 'Send one of code, recoveryCode or assertion',
  totpAlreadyOn: 'Two-factor sign-in is already on: turn it off first to set it up again',
  totpNotStarted: 'There is no set-up waiting for a code: start setting up again',
  totpOn: `Two-factor sign-in is on. Keep the ${RECOVERY_CODE_COUNT} recovery codes somewhere safe: each works once.`,
  totpNotOn: 'Two-factor sign-in is not on',
  totpOff: 'Two-factor sign-in is off',
  recoveryCodesMade: 'New recovery codes made: the earlier ones no longer work.',
  passwordWrong: 'The password is not correct',
  passwordRequired: 'Enter your password',
  codeRequired: 'Enter a code from your authenticator app or a recovery code',
  // passkeys
  passkeyAdded: 'Passkey added',
  passkeyRemoved: 'Passkey removed',
  passkeyRenamed: 'Passkey renamed',
  passkeyNotFound: 'Passkey not found',
  passkeyRefused: 'The passkey could not be verified: try again',
  passkeyUnknown: 'This passkey is not registered with Stockroom',
  passkeyNameInvalid: 'The name must be 1 to 60 characters',
  passkeysNeedDomain:
    'Passkeys need PUBLIC_URL to name the server by a domain name (such as localhost), not an IP address',
  // sessions
  sessionEnded: 'Session ended',
  sessionNotFound: 'Session not found',
  otherSessionsEnded: 'Every other session has been ended',
  // deleting the account
  accountDeleted: 'Your account has been deleted',
  ownsSharedCatalogues: (names: readonly string[]) =>
    `Hand over or delete the shared catalogues you own first: ${names.join(', ')}`,
} as const;
