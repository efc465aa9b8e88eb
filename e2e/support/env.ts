/**
 * What the global setup hands to the test workers. Workers are started after the global setup and
 * inherit its environment, so plain environment variables carry these values across.
 */
export const ENV = {
  /** http://127.0.0.1:<port> of the real server. */
  baseUrl: 'E2E_BASE_URL',
  /** Folder where the loopback SMTP server writes every received mail as JSON. */
  mailDir: 'E2E_MAIL_DIR',
  /** Folder with the generated upload images. */
  filesDir: 'E2E_FILES_DIR',
} as const;

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run the suite through Playwright (npm run test:e2e)`);
  }
  return value;
}
