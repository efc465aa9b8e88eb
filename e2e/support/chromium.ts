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

/**
 * Chromium's features that Playwright turns off, as its version 1.65 lists them. Chromium keeps
 * only the last --disable-features it is given, and Playwright passes this list before a launch's
 * own arguments: a launch that turns off more features must repeat these.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium's omnibox popup is a web page of its own, loaded in a renderer process of its own with
 * every window: with every test's browser context. Opening the login page in a new context took a
 * third more CPU with it.
 */
const OMNIBOX_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The arguments of the browser suite's launches: CHROMIUM_ARGS, and fewer pages of Chromium's own. */
export const PLAYWRIGHT_CHROMIUM_ARGS = [
  ...CHROMIUM_ARGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP].join(',')}`,
];
