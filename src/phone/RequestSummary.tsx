import { useEffect, useRef } from 'preact/hooks';
import type { PhoneOpened } from '../protocol/wire.ts';
import type { PhoneCopy } from './copy/index.ts';
import { Countdown } from './Countdown.tsx';
import { audienceOf } from './words.ts';

/**
 * Who asks, and what: each scope as a fact the person is about to prove. Its heading takes the
 * focus when the request appears (`takeFocus`), so a screen reader starts there.
 */
export function RequestSummary(props: { copy: PhoneCopy; request: PhoneOpened; sandbox: boolean; takeFocus: boolean }) {
  const { copy, request, sandbox, takeFocus } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) heading.current?.focus();
  }, []);
  const blind = request.rail === 'adult_blind';
  return (
    <section class="phone-card" aria-labelledby="asked-title">
      <h2 id="asked-title" data-testid="audience" ref={heading} tabIndex={-1}>
        {blind ? copy.askedByBlind : copy.askedBy(audienceOf(request, copy, sandbox))}
      </h2>
      <ul class="phone-facts" data-testid="scopes">
        {request.scopes.map((scope) => (
          <li key={scope} data-scope={scope}>
            {copy.scopes[scope]}
          </li>
        ))}
      </ul>
      {blind && <p class="phone-help">{copy.blindNote(request.audience_label)}</p>}
      <p class="phone-help">{copy.minimalNote}</p>
      <Countdown copy={copy} expiresAt={request.expires_at} />
    </section>
  );
}
