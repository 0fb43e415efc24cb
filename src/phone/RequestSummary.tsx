import type { PhoneOpened } from '../protocol/api.ts';
import { COPY, SCOPE_FACTS } from './copy.ts';
import { Countdown } from './Countdown.tsx';

/** Who asks, and what: each scope as a fact the person is about to prove. */
export function RequestSummary({ request }: { request: PhoneOpened }) {
  const blind = request.rail === 'adult_blind';
  return (
    <section class="phone-card" aria-labelledby="asked-title">
      <h2 id="asked-title" data-testid="audience">
        {blind ? COPY.askedByBlind : COPY.askedBy(request.audience_label)}
      </h2>
      <ul class="phone-facts" data-testid="scopes">
        {request.scopes.map((scope) => (
          <li key={scope} data-scope={scope}>
            {SCOPE_FACTS[scope]}
          </li>
        ))}
      </ul>
      {blind && <p class="phone-help">{COPY.blindNote(request.audience_label)}</p>}
      <p class="phone-help">{COPY.minimalNote}</p>
      <Countdown expiresAt={request.expires_at} />
    </section>
  );
}
