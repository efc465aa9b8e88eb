import type { DevMail } from '@shared/schemas/dev-mail.js';
import { ErrorMessage } from '@/components/ui/Alert.js';
import { Card } from '@/components/ui/Card.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { LogoLink } from '@/components/Logo.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatDateTime } from '@/lib/format.js';
import { useMails } from '../api/get-mails.js';
import { tabTitle } from '@/lib/texts.js';
import { MailText } from './MailText.js';

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

/** /dev/mailbox: the mails the app "sent" in development, codes included. */
export function Mailbox() {
  const mails = useMails();
  return (
    <div className="min-h-full bg-gray-100">
      <header className="bg-gray-900">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-4 py-4 sm:px-6">
          <LogoLink />
          <span className="rounded-md bg-yellow-300 px-2 py-1 text-xs font-bold text-gray-900">
            Development only
          </span>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-6">
        <div>
          <title>{tabTitle('Mailbox')}</title>
          <h1 className="text-3xl font-bold tracking-tight text-gray-900">Mailbox</h1>
          <p className="mt-2 text-sm text-gray-600">
            Without SMTP, every mail is kept on the server instead of being sent. Newest first; the
            list refreshes on its own.
          </p>
        </div>
        {mails.isPending ? (
          <PageSpinner label="Loading the mails..." />
        ) : mails.isError ? (
          <ErrorMessage>{getErrorMessage(mails.error)}</ErrorMessage>
        ) : mails.data.length === 0 ? (
          <Card className="px-6 py-12 text-center text-gray-600">No mail has been sent yet.</Card>
        ) : (
          <ul className="space-y-4">
            {mails.data.map((mail) => (
              <MailItem key={mail.id} mail={mail} />
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}

function MailItem({ mail }: { mail: DevMail }) {
  const code = codeIn(mail.text);
  return (
    <li>
      <Card className="p-5 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 className="text-base font-semibold text-gray-900">{mail.subject}</h2>
            <p className="mt-1 text-sm text-gray-600">
              To <span className="font-medium text-gray-900">{mail.to}</span> ·{' '}
              <time dateTime={mail.sentAt}>{formatDateTime(mail.sentAt)}</time>
            </p>
          </div>
          {code && (
            <p className="rounded-lg bg-indigo-50 px-3 py-1.5 font-mono text-lg font-bold tracking-[0.3em] text-indigo-800">
              <span className="sr-only">Code: </span>
              {code}
            </p>
          )}
        </div>
        <pre className="mt-4 rounded-lg bg-gray-50 p-4 text-sm whitespace-pre-wrap text-gray-800 [overflow-wrap:anywhere]">
          <MailText text={mail.text} />
        </pre>
      </Card>
    </li>
  );
}
