import { useEffect, useState } from 'react';
import { DEV_MAILBOX_META } from '@shared/constants.js';
import { TextLink } from '@/components/ui/TextLink.js';
import { env } from '@/lib/env.js';
import { paths } from '@/lib/paths.js';

/** The mailbox answers only a browser on the server's own machine. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

let available: Promise<boolean> | undefined;

/**
 * Whether the server keeps a local mailbox for this browser: outside production without SMTP_URL
 * (`npm start` on a fresh clone), codes land there rather than in an inbox. The server says so in
 * the page it serves, so a normal visit asks nothing that could fail; under Vite's development
 * server, which serves the page itself, the mailbox is asked once, on a loopback address only.
 */
function mailboxAvailable(): Promise<boolean> {
  available ??=
    document.querySelector(`meta[name="${DEV_MAILBOX_META}"]`) !== null
      ? Promise.resolve(true)
      : import.meta.env.DEV && LOOPBACK_HOSTS.has(window.location.hostname)
        ? fetch(`${env.apiUrl}/dev/mails`, { method: 'HEAD' }).then(
            (response) => response.ok,
            () => false,
          )
        : Promise.resolve(false);
  return available;
}

/** A link to the local mailbox beside the screens that need a mailed code, when there is one. */
export function DevMailboxLink() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let current = true;
    void mailboxAvailable().then((ok) => {
      if (current) setShown(ok);
    });
    return () => {
      current = false;
    };
  }, []);
  if (!shown) return null;
  return (
    <TextLink to={paths.devMailbox.getHref()} target="_blank">
      Open the local mailbox (development)
    </TextLink>
  );
}
