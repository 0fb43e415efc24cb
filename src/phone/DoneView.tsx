/**
 * The done view (design.md §19): where a wallet on this phone sends the visitor back, at
 * `/m/v/<request_id>/done#response_code=<code>`. The code leaves the address bar at once; the page
 * redeems it (once) and says, in the request's language, that the proof was shared and how to get
 * back to the page that asked, which completes by itself. A missing, forged, used or other
 * request's code gets a neutral page that says nothing of the request.
 */
import { render } from 'preact';
import { LOCALES, type Locale, type RequestStatus } from '../protocol/wire.ts';
import type { PhoneApi } from './phone-client.ts';
import type { PhoneCopy } from './copy/index.ts';
import { OutcomePanel } from './OutcomePanel.tsx';

const DONE_PATH = /^\/m\/v\/([A-Za-z0-9_-]{1,128})\/done$/;

/** The request id of a done view's path, or null for any other page. */
export function doneRequestOf(pathname: string): string | null {
  return DONE_PATH.exec(pathname)?.[1] ?? null;
}

/** Takes `response_code` out of the address bar (not kept by a reload, a screenshot or a shared link). */
export function takeResponseCode(location: Location, history: History): string | null {
  const code = new URLSearchParams(location.hash.slice(1)).get('response_code');
  if (location.hash) history.replaceState(null, '', location.pathname);
  return code;
}

function DonePanel({ copy, status }: { copy: PhoneCopy; status: RequestStatus | null }) {
  const view = copy.doneView;
  const [panel, tone] =
    status === 'completed'
      ? ([view.shared, 'good'] as const)
      : status === null
        ? ([view.neutral, 'neutral'] as const)
        : ([view.ended, 'neutral'] as const);
  return <OutcomePanel tone={tone} title={panel.title} help={panel.help} testId="phone-done" />;
}

/**
 * Redeems the code and renders the view into `root`, first in `locale`, then in the request's;
 * each language's copy is loaded as the page needs it (design.md §20: the page loads one).
 *
 * @example await showDoneView(root, api, 'vr_…', code, loadPhoneCopy, 'en')
 */
export async function showDoneView(
  root: HTMLElement,
  api: Pick<PhoneApi, 'send'>,
  requestId: string,
  code: string | null,
  loadCopy: (locale: Locale) => Promise<PhoneCopy>,
  locale: Locale,
): Promise<void> {
  const paint = async (status: RequestStatus | null | undefined, lang: Locale) => {
    const copy = await loadCopy(lang);
    document.documentElement.lang = lang;
    document.title = copy.doneView.title;
    render(
      <div class="phone" data-view="done">
        <main>
          {status === undefined ? (
            <p class="phone-card phone-loading" role="status">
              {copy.doneView.checking}
            </p>
          ) : (
            <DonePanel copy={copy} status={status} />
          )}
        </main>
      </div>,
      root,
    );
  };
  const checking = paint(undefined, locale);
  const answer = code
    ? await api.send<{ status: RequestStatus; locale: Locale }>(
        `/api/m/requests/${encodeURIComponent(requestId)}/done`,
        { response_code: code },
      )
    : null;
  await checking;
  if (answer?.ok)
    await paint(
      answer.data.status,
      (LOCALES as readonly string[]).includes(answer.data.locale) ? answer.data.locale : locale,
    );
  else await paint(null, locale);
}
