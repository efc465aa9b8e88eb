import { TextLink } from '@/components/ui/TextLink.js';

/**
 * In a development build (`npm run dev`), the codes land in the local mailbox rather than an inbox:
 * a link to it beside the screens that need one. Production builds drop it (import.meta.env.DEV is
 * false there, so the bundler removes the branch).
 */
export function DevMailboxLink() {
  if (!import.meta.env.DEV) return null;
  return (
    <TextLink to="/dev/mailbox" target="_blank">
      Open the local mailbox (development)
    </TextLink>
  );
}
