import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { readyLine } from '../../src/server/ready-line.js';

const config = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: '/tmp/stockroom-ready', PORT: '3000', ...env });

describe('the ready line', () => {
  it("names the app's URL and, in development without SMTP, the local mailbox", () => {
    const line = readyLine(config({}), 'sqlite');
    expect(line).toContain('http://localhost:3000/ ');
    expect(line).toContain('mailbox at http://localhost:3000/dev/mailbox');
  });

  it('has no mailbox with SMTP or in production', () => {
    expect(readyLine(config({ SMTP_URL: 'smtp://mail.example:25' }), 'sqlite')).not.toMatch(
      /mailbox/,
    );
    expect(
      readyLine(config({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(64) }), 'sqlite'),
    ).not.toMatch(/mailbox/);
  });
});
