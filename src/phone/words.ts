/**
 * Words that come from the service, in the page's language: the designers' demo partner's name.
 * Every other partner's name is shown as the partner wrote it: a name is not translated. (The
 * sandbox personas' labels are the sandbox wing's: sandbox/PersonaPicker.tsx.)
 */
import type { PhoneOpened } from '../protocol/wire.ts';
import type { PhoneCopy } from './copy/index.ts';

/** The sandbox fixture partner `pk_test_designer`'s name (fixtures/partners.json), as open answers it. */
export const DEMO_AUDIENCE_LABEL = "Designers' demo page";

/**
 * Who asks: the partner's name (STANDARD) or the blind app's id (ADULT_BLIND), the designers' demo
 * page in the page's language when the service runs in sandbox (production has no such partner).
 *
 * @example audienceOf(request, PHONE_COPY.fr, true) // 'La page de démonstration des designers'
 */
export function audienceOf(
  request: Pick<PhoneOpened, 'audience_label' | 'rail'>,
  copy: PhoneCopy,
  sandbox: boolean,
): string {
  return sandbox && request.rail === 'standard' && request.audience_label === DEMO_AUDIENCE_LABEL
    ? copy.demoAudience
    : request.audience_label;
}
