import { useEffect, useState, type ReactNode } from 'react';

interface CountdownProps {
  /** When the wait is over, in ms since the epoch; 0 or a past time for no wait. */
  until: number;
  /** Shown while waiting, given the whole seconds left (1 or more). */
  waiting: (secondsLeft: number) => ReactNode;
  /** Shown once the wait is over. */
  children: ReactNode;
}

/** Shows `waiting` with the seconds left until `until`, then `children`. */
export function Countdown(props: CountdownProps) {
  // A new deadline mounts a new ticker, so that it starts from a fresh reading of the clock.
  return <Ticker key={props.until} {...props} />;
}

function Ticker({ until, waiting, children }: CountdownProps) {
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.ceil((until - now) / 1000);
  useEffect(() => {
    if (secondsLeft <= 0) return;
    // Wake up when the shown number changes; reading the clock again corrects timer drift.
    const timer = setTimeout(() => setNow(Date.now()), (until - now) % 1000 || 1000);
    return () => clearTimeout(timer);
  }, [until, now, secondsLeft]);
  return secondsLeft > 0 ? waiting(secondsLeft) : children;
}

/**
 * A number of seconds: '42 s' on screen, '42 seconds' to a screen reader. Put it in no live
 * region: it changes every second.
 */
export function Seconds({ count }: { count: number }) {
  return (
    <>
      <span aria-hidden="true" className="tabular-nums">
        {count} s
      </span>
      <span className="sr-only">
        {count} {count === 1 ? 'second' : 'seconds'}
      </span>
    </>
  );
}
