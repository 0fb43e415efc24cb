import type { PhoneOpened } from '../protocol/api.ts';
import type { PhoneCopy } from './copy/index.ts';
import { Countdown } from './Countdown.tsx';

/** Who asks, and what: each scope as a fact the person is about to prove. */
export function RequestSummary({ copy, request }: { copy: PhoneCopy; request: PhoneOpened }) {
  const blind = request.rail === 'adult_blind';
  return (
    <section class="phone-card" aria-labelledby="asked-title">
      <h2 id="asked-title" data-testid="audience">
        {blind ? copy.askedByBlind : copy.askedBy(request.audience_label)}
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
