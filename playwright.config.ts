import { defineConfig, devices } from '@playwright/test';
import { PLAYWRIGHT_CHROMIUM_ARGS, chromiumPath } from './e2e/support/chromium.js';

const ci = process.env.CI === 'true';

/**
 * The browser suite: Debian's Chromium (never a downloaded browser) against the real server, which
 * e2e/global-setup.ts builds and starts with a loopback SMTP server and a fresh DATA_DIR.
 */
export default defineConfig({
  testDir: 'e2e',
  // The README's pictures are retaken only when asked for (`npm run screenshots`).
  testIgnore: process.env.SCREENSHOTS === 'update' ? [] : ['readme-screenshots.spec.ts'],
  outputDir: 'e2e/artifacts/test-results',
  globalSetup: './e2e/global-setup.ts',
  // Two cores: the server and the browsers share them.
  workers: 2,
  fullyParallel: true,
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'e2e/artifacts/report', open: 'never' }]],
  use: {
    ...devices['Desktop Chrome'],
    // Set by the global setup before the workers start.
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    // The service worker would copy the whole app (2 MB with the scanner's WebAssembly) into every
    // test's fresh browser context. The specs of what it does allow it: offline, the offline queue,
    // the network, the security headers and hydration.
    serviceWorkers: 'block',
    launchOptions: { executablePath: chromiumPath(), args: PLAYWRIGHT_CHROMIUM_ARGS },
    // A test that failed once is recorded when it runs again (CI retries it): every action with
    // the page's DOM before and after, without the screencast of every frame. Recording every test
    // to keep the failures' traces cost a sixth of the CPU (docs/performance.md, eleventh pass).
    trace: { mode: 'on-first-retry', screenshots: false },
    screenshot: 'only-on-failure',
  },
});
