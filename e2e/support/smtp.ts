import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TestSmtpServer, type ReceivedMail } from '../../tests/support/smtp.js';

export type { ReceivedMail };

/**
 * The loopback SMTP server of the browser suite: each mail becomes one JSON file in `mailDir`,
 * named so that a sort by name is arrival order, for the test workers (other processes) to read.
 */
export function capturingSmtpServer(mailDir: string) {
  return new TestSmtpServer((mail) => {
    // Written aside, then renamed: a reader never sees half a file.
    const file = path.join(mailDir, `${String(mail.seq).padStart(6, '0')}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(mail));
    renameSync(`${file}.tmp`, file);
  });
}
