/**
 * The browser every tool of the project drives: Debian's Chromium unless CHROMIUM_PATH names
 * another Chromium or Chrome binary (never a downloaded browser), with the flags this machine
 * needs: no sandbox as root, no GPU, and nothing that reaches out to Google's servers (the
 * network here is closed, and those connections would be refused many at a time).
 */
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
