/**
 * The way back from the finished view to the page that asked (design.md §14), where the phone
 * page can know it: opened on the same device, by the widget's "open on this device" link, it
 * replaced the site's page in the same tab, so the site is behind it in this tab's history. Its
 * first load remembers where the history stood, in this tab's session storage (a sign-in at an
 * identity provider adds entries and comes back to the same tab); scanned from another device it
 * has no site behind it, and offers nothing. The site's address is never read or kept: only that
 * the page came from another origin.
 */

const STORAGE_PREFIX = 'svc-phone-back:';

/**
 * On the page's first load for a request: when it was opened from another origin's page (a
 * `document.referrer` of another origin), remembers how long the history was.
 *
 * @example rememberArrival(sessionStorage, 'vr_abc', document.referrer, location.origin, history.length)
 */
export function rememberArrival(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  requestId: string,
  referrer: string,
  ownOrigin: string,
  historyLength: number,
): void {
  let from: string;
  try {
    from = new URL(referrer).origin;
  } catch {
    return;
  }
  if (from === ownOrigin) return;
  try {
    if (storage?.getItem(STORAGE_PREFIX + requestId) === null)
      storage.setItem(STORAGE_PREFIX + requestId, String(historyLength));
  } catch {
    // no storage: no way back to offer
  }
}

/**
 * Goes back to the site's page when the page remembered one for this request, else null: as many
 * steps as the history grew since the arrival, plus one.
 *
 * @example const back = wayBack(sessionStorage, 'vr_abc', history) // () => history.go(-3), or null
 */
export function wayBack(
  storage: Pick<Storage, 'getItem'> | null,
  requestId: string,
  history: Pick<History, 'go' | 'length'>,
): (() => void) | null {
  let arrival: number;
  try {
    arrival = Number(storage?.getItem(STORAGE_PREFIX + requestId) ?? NaN);
  } catch {
    return null;
  }
  if (!Number.isInteger(arrival) || arrival < 2 || history.length < arrival) return null;
  return () => history.go(arrival - history.length - 1);
}
