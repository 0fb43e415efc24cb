/**
 * Where the phone page gets its request from: the path names the request, the fragment carries
 * the handoff token `h` (DESIGN §3: deep_link = {app_url}/m/v/<request_id>#h=<handoff_token>).
 */

export interface Handoff {
  requestId: string;
  /** null when the link lost its fragment (copied without it, or reloaded after clearing) */
  h: string | null;
}

const REQUEST_ID = /^vr_[A-Za-z0-9_-]{1,128}$/;
const STORAGE_PREFIX = 'svc-phone-h:';

/**
 * Reads the request ID from `/m/v/<id>` and `h` from `#h=…`, or null when the path is not a
 * phone link at all.
 *
 * @example readHandoff('/m/v/vr_abc', '#h=h_xyz') // { requestId: 'vr_abc', h: 'h_xyz' }
 */
export function readHandoff(pathname: string, hash: string): Handoff | null {
  const match = /^\/m\/v\/([^/]+)\/?$/.exec(pathname);
  const requestId = match?.[1] ? decodeURIComponent(match[1]) : null;
  if (!requestId || !REQUEST_ID.test(requestId)) return null;
  const h = new URLSearchParams(hash.replace(/^#/, '')).get('h');
  return { requestId, h: h && h.length <= 256 ? h : null };
}

/**
 * Takes `h` out of the address bar (so it is not shared with a screenshot or a copied link)
 * and keeps it in this tab's session storage, so a reload still works.
 *
 * @example const handoff = takeHandoff(window.location, window.history, window.sessionStorage)
 */
export function takeHandoff(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
  history: Pick<History, 'replaceState' | 'state'>,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
): Handoff | null {
  const handoff = readHandoff(location.pathname, location.hash);
  if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
  if (!handoff) return null;
  const key = STORAGE_PREFIX + handoff.requestId;
  try {
    if (handoff.h) storage?.setItem(key, handoff.h);
    else handoff.h = storage?.getItem(key) ?? null;
  } catch {
    // Storage can be disabled (private mode); the page then works until it is reloaded.
  }
  return handoff;
}
