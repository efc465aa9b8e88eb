import type { LinkProps } from 'react-router';
import { Countdown, Seconds } from '@/components/ui/Countdown.js';
import { TextLink } from '@/components/ui/TextLink.js';

interface ResendLinkProps {
  to: LinkProps['to'];
  /** When it works again (ms since the epoch), from useResendReadyAt. */
  readyAt: number;
  /** The link's text, e.g. 'Resend code'. */
  children: string;
}

/**
 * A link to ask for a new code. Until `readyAt` it is a disabled link reading 'Resend code in
 * 42 s': not focusable and outside any live region, so a screen reader finds it without hearing
 * every second.
 */
export function ResendLink({ to, readyAt, children }: ResendLinkProps) {
  return (
    <Countdown
      until={readyAt}
      waiting={(secondsLeft) => (
        <span
          role="link"
          aria-disabled="true"
          className="cursor-not-allowed font-semibold text-gray-600"
        >
          {children} in <Seconds count={secondsLeft} />
        </span>
      )}
    >
      <TextLink to={to}>{children}</TextLink>
    </Countdown>
  );
}
