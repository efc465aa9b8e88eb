import type { Config } from './config.js';

/**
 * What the server says once it listens: where the app is, what it runs on and, in development
 * without SMTP, where the mails land (the local mailbox page; production has none).
 */
export function readyLine(
  config: Pick<Config, 'dataDir' | 'env' | 'smtpUrl' | 'publicUrl' | 's3'>,
  dialect: 'postgres' | 'sqlite',
): string {
  const database = dialect === 'postgres' ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  const mailbox = config.env !== 'production' && !config.smtpUrl;
  const mail = config.smtpUrl
    ? 'mail over SMTP'
    : mailbox
      ? `mail to ${config.dataDir}/mail, mailbox at ${config.publicUrl}/dev/mailbox`
      : `mail to ${config.dataDir}/mail`;
  const images = config.s3
    ? `images in S3 bucket ${config.s3.bucket}`
    : `images in ${config.dataDir}/images`;
  return `Stockroom is ready at ${config.publicUrl}/ (${database}; ${mail}; ${images})`;
}
