import { TextLink } from '@/components/ui/TextLink.js';

/** After a code was requested: where to type it (the mail also links there). */
export function CodeSentNotice({ to }: { to: string }) {
  return (
    <p role="status" className="mt-6 rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-900">
      Check your inbox for the 6-digit code. <TextLink to={to}>Enter the code</TextLink>
    </p>
  );
}
