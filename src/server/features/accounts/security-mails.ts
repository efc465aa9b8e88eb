import { renderMail } from '../../infra/mail/templates.js';

/**
 * Mails that tell the owner of a change to how the account signs in: if it was not them, they
 * learn of it at once and are told what to do.
 */
const securityMail = (publicUrl: string, to: string, name: string, subject: string, said: string) =>
  renderMail({
    to,
    subject,
    greeting: `Hello ${name},`,
    paragraphs: [said, 'If this was not you, reset your password now and check your sessions.'],
    action: { label: 'Reset your password', url: `${publicUrl}/auth/forgot-password` },
  });

export const securityMails = {
  totpOn: (publicUrl: string, to: string, name: string) =>
    securityMail(
      publicUrl,
      to,
      name,
      'Two-factor sign-in is on for your Stockroom account',
      'Logging in to your account now asks for a code from your authenticator app after the password.',
    ),
  totpOff: (publicUrl: string, to: string, name: string) =>
    securityMail(
      publicUrl,
      to,
      name,
      'Two-factor sign-in was turned off for your Stockroom account',
      'Logging in to your account no longer asks for a code from an authenticator app.',
    ),
  passkeyAdded: (publicUrl: string, to: string, name: string, passkey: string) =>
    securityMail(
      publicUrl,
      to,
      name,
      'A passkey was added to your Stockroom account',
      `The passkey "${passkey}" can now log in to your account.`,
    ),
  passkeyRemoved: (publicUrl: string, to: string, name: string, passkey: string) =>
    securityMail(
      publicUrl,
      to,
      name,
      'A passkey was removed from your Stockroom account',
      `The passkey "${passkey}" can no longer log in to your account.`,
    ),
  accountDeleted: (to: string, name: string) =>
    renderMail({
      to,
      subject: 'Your Stockroom account was deleted',
      greeting: `Hello ${name},`,
      paragraphs: [
        'Your Stockroom account was deleted, with your personal catalogue and its pictures. Shared catalogues keep the changes you made there, under your name.',
        'This cannot be undone. If this was not you, reply to this e-mail straight away.',
      ],
    }),
};
