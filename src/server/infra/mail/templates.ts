import { CODE_TTL_MINUTES } from '../../../shared/constants.js';
import type { MailMessage } from './outbox.js';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

interface Layout {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  code?: string;
  action?: { label: string; url: string };
}

/** One layout for every mail: a plain-text body and an HTML body that say the same thing. */
export function renderMail({
  to,
  subject,
  greeting,
  paragraphs,
  code,
  action,
}: Layout): MailMessage {
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(code ? [`Your code: ${code}`, `It expires in ${CODE_TTL_MINUTES} minutes.`, ''] : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '— Stockroom',
  ].join('\n');

  const html = `<!doctype html>
<html lang="en"><body style="margin:0;padding:24px;background:#f3f4f6;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(subject)}</h1>
<p style="margin:0 0 16px">${escapeHtml(greeting)}</p>
${paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${
  code
    ? `<p style="margin:24px 0 8px;font-size:36px;font-weight:700;letter-spacing:12px;font-family:ui-monospace,Menlo,monospace;text-align:center">${code}</p>
<p style="margin:0 0 24px;text-align:center;color:#4b5563">This code expires in ${CODE_TTL_MINUTES} minutes.</p>`
    : ''
}
${
  action
    ? `<p style="margin:0 0 16px;text-align:center"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a></p>`
    : ''
}
<p style="margin:24px 0 0;color:#6b7280;font-size:13px">If you did not ask for this, you can ignore this e-mail.</p>
</td></tr></table></body></html>`;
  return { to, subject, text, html };
}

/**
 * Text a user typed (a name, a catalogue's name, a URL), as a mail shows it: on one line, in
 * quotes, so it reads as someone's words, and only ever in a mail's body, next to whose it is.
 * Subjects carry none: a subject is what a mail client shows first and links.
 */
const typed = (text: string) => `“${text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim()}”`;

/** Links carry the e-mail, never the code: the code must come from the mail, typed or pasted. */
const screenUrl = (publicUrl: string, screen: string, email: string) =>
  `${publicUrl}/auth/${screen}?email=${encodeURIComponent(email)}`;

/** A moment as mails say it, in UTC: "8 January 2026 at 14:05 UTC". */
const mailTime = (at: number) => {
  const date = new Date(at);
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return `${day} at ${date.toISOString().slice(11, 16)} UTC`;
};

interface InvitationMail {
  /** The inviter's name, as they typed it, and their (confirmed) address, which names them. */
  inviter: string;
  inviterEmail: string;
  catalogue: string;
  /** How the role reads ("Editor") and what it may do. */
  role: string;
  roleDescription: string;
  expiresAt: number;
}

interface EmailChange {
  from: string;
  to: string;
}

/** What the mail of a purchase order says beside its PDF. */
interface PurchaseOrderMail {
  /** The catalogue's name (who orders) and the supplier's, as their users typed them. */
  buyer: string;
  supplier: string;
  number: string;
  /** Lines, units and the total as the PDF prints it ($1,234.50). */
  lines: number;
  units: string;
  total: string;
  /** yyyy-mm-dd, or null. */
  expected: string | null;
  /** Who sent it: their name and confirmed address, to reply to. */
  sender: string;
  senderEmail: string;
}

/** What the mail of a disabled webhook names. */
interface DisabledWebhook {
  url: string;
  catalogue: string;
  catalogueId: string;
  lastError: string;
}

export const templates = {
  /**
   * To the address someone signed up with, who may not be its owner: the name they gave is
   * theirs, in quotes, never a greeting.
   */
  confirmAccount: (publicUrl: string, to: string, name: string, code: string) =>
    renderMail({
      to,
      subject: 'Confirm your Stockroom account',
      greeting: 'Hello,',
      paragraphs: [
        `Someone signed up to Stockroom with this e-mail address and typed the name ${typed(name)}. If it was you, enter this code to confirm your account.`,
      ],
      code,
      action: { label: 'Confirm your account', url: screenUrl(publicUrl, 'confirm-account', to) },
    }),

  resetPassword: (publicUrl: string, to: string, name: string, code: string) =>
    renderMail({
      to,
      subject: 'Reset your Stockroom password',
      greeting: `Hello ${name},`,
      paragraphs: ['Enter this code to choose a new password.'],
      code,
      action: { label: 'Reset your password', url: screenUrl(publicUrl, 'reset-password', to) },
    }),

  accountExists: (publicUrl: string, to: string, name: string) =>
    renderMail({
      to,
      subject: 'You already have a Stockroom account',
      greeting: `Hello ${name},`,
      paragraphs: [
        'Someone tried to sign up with this e-mail address, but it already belongs to your account. No new account was created.',
        'If you forgot your password, you can reset it.',
      ],
      action: { label: 'Reset your password', url: `${publicUrl}/auth/forgot-password` },
    }),

  passwordChanged: (publicUrl: string, to: string, name: string) =>
    renderMail({
      to,
      subject: 'Your Stockroom password was changed',
      greeting: `Hello ${name},`,
      paragraphs: [
        'The password of your account was just changed, and other sessions were signed out.',
        'If this was not you, reset your password now.',
      ],
      action: { label: 'Reset your password', url: `${publicUrl}/auth/forgot-password` },
    }),

  /** Told to both addresses once the change is confirmed. */
  emailChanged: (publicUrl: string, to: string, name: string, change: EmailChange) =>
    renderMail({
      to,
      subject: 'Your Stockroom e-mail address was changed',
      greeting: `Hello ${name},`,
      paragraphs: [
        `The e-mail address of your account was changed from ${change.from} to ${change.to}.`,
        'If this was not you, contact us straight away.',
      ],
      action: { label: 'Open Stockroom', url: `${publicUrl}/auth/login` },
    }),

  /**
   * An invitation to join a catalogue, to an address that may have no account yet: the same mail
   * either way, and the link works for both (sign up, confirm, and the invitation is there). The
   * names in it are the inviter's words, said to be theirs; the subject carries none of them.
   */
  invitation: (publicUrl: string, to: string, invitation: InvitationMail) =>
    renderMail({
      to,
      subject: 'A Stockroom user invited you to a catalogue',
      greeting: 'Hello,',
      paragraphs: [
        `${invitation.inviterEmail} invited you to join a catalogue on Stockroom as ${invitation.role}: ${invitation.roleDescription}`,
        `They named the catalogue ${typed(invitation.catalogue)} and themselves ${typed(invitation.inviter)}: these names are theirs, as they typed them.`,
        `The invitation expires on ${mailTime(invitation.expiresAt)}. Accept or decline it on your invitations page.`,
        `No account yet? Sign up with this e-mail address (${to}) and confirm it: the invitation waits for you.`,
      ],
      action: { label: 'See your invitations', url: `${publicUrl}/invitations` },
    }),

  /**
   * The code that proves the new address, sent to it: whoever owns it is told which account asks
   * for it, by its current address and the name it goes by.
   */
  confirmEmailChange: (
    publicUrl: string,
    to: string,
    account: { name: string; from: string },
    code: string,
  ) =>
    renderMail({
      to,
      subject: 'Confirm your new Stockroom e-mail address',
      greeting: 'Hello,',
      paragraphs: [
        `The Stockroom account of ${account.from}, named ${typed(account.name)} by its owner, asked to use this e-mail address instead.`,
        'Enter this code on your profile page to make this the e-mail address of your account. Until then the account keeps its old address.',
      ],
      code,
      action: { label: 'Open your profile', url: `${publicUrl}/profile` },
    }),
  /**
   * To a catalogue's owner and admins: an endpoint kept failing and is no longer called. Its
   * address and the catalogue's name, typed by the catalogue's admins, stay out of the subject.
   */
  webhookDisabled: (publicUrl: string, to: string, name: string, hook: DisabledWebhook) =>
    renderMail({
      to,
      subject: 'A webhook of your Stockroom catalogue was disabled',
      greeting: `Hello ${name},`,
      paragraphs: [
        `The webhook ${typed(hook.url)} of your catalogue ${typed(hook.catalogue)} failed every attempt for 3 days (or 100 attempts in a row over an hour), so Stockroom stopped calling it. The address and the name are as the catalogue's admins typed them.`,
        `Its last error: ${hook.lastError}. Once the endpoint works again, enable it in the catalogue's settings.`,
      ],
      action: {
        label: 'Open the settings',
        url: `${publicUrl}/catalogues/${hook.catalogueId}/settings`,
      },
    }),
  /**
   * To a supplier's address: a purchase order, its PDF attached (by the caller). The names are
   * typed by the catalogue's users: in the body, in quotes, never in the subject.
   */
  purchaseOrder: (to: string, order: PurchaseOrderMail) =>
    renderMail({
      to,
      subject: `Purchase order ${order.number}`,
      greeting: 'Hello,',
      paragraphs: [
        `${order.senderEmail} sends you purchase order ${order.number} for ${typed(order.supplier)} from the Stockroom catalogue ${typed(order.buyer)}: ${order.lines} ${order.lines === 1 ? 'line' : 'lines'}, ${order.units} units, ${order.total} in total${order.expected ? `, expected by ${order.expected}` : ''}.`,
        `The order is attached as a PDF. Questions about it go to ${typed(order.sender)} at ${order.senderEmail}.`,
      ],
    }),
};
