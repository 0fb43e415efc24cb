import { useEffect, useState } from 'preact/hooks';
import type { PhoneCopy } from './copy/index.ts';

/**
 * m:ss until `expiresAt` (ms since epoch), shown; to a screen reader, which would read m:ss as a
 * time of day, the minutes left in words with their plural form (design.md §20: "4:32" is "5
 * minutes"). Not announced: it would chatter.
 */
export function Countdown({
  copy,
  expiresAt,
  now = Date.now,
}: {
  copy: PhoneCopy;
  expiresAt: number;
  now?: () => number;
}) {
  const [left, setLeft] = useState(() => expiresAt - now());
  useEffect(() => {
    const timer = setInterval(() => setLeft(expiresAt - now()), 1000);
    return () => clearInterval(timer);
  }, [expiresAt, now]);
  const seconds = Math.max(0, Math.ceil(left / 1000));
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <p class="phone-countdown" data-testid="countdown">
      <span aria-hidden="true">{copy.expiresIn(text)}</span>
      <span class="phone-sr">{copy.minutesLeft(Math.max(1, Math.ceil(seconds / 60)))}</span>
    </p>
  );
}
