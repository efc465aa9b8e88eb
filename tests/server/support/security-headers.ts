/** What every answer carries, whatever refused or answered the request (http/security-headers.ts). */
export const EVERY_ANSWER = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
