/**
 * Where the phone page gets its request from: the path names the request, the fragment carries
 * the handoff token `h` (design.md §3: deep_link = {app_url}/m/v/<request_id>#h=<handoff_token>).
 * Back from an identity provider, the query says how the sign-in ended (design.md §12:
 * `/m/v/<request_id>?login=<result>`); at `/m/callback` itself the service found no sign-in of ours.
 */
import type { LoginResult } from '../protocol/wire.ts';

export interface Handoff {
  requestId: string;
  /** null when the link lost its fragment (copied without it, or reloaded after clearing) */
  h: string | null;
  /** how the identity provider's sign-in ended, a display hint (the page reads the status with h) */
  login: LoginResult | null;
}

/** Where an identity provider sends the visitor back; the page is served there only for a sign-in the service does not know. */
export const CALLBACK_PATH = '/m/callback';

const LOGIN_RESULTS: readonly LoginResult[] = ['approved', 'failed', 'refused', 'finished'];

const REQUEST_ID = /^vr_[A-Za-z0-9_-]{1,128}$/;
const STORAGE_PREFIX = 'svc-phone-h:';

/**
 * Reads the request ID from `/m/v/<id>`, `h` from `#h=…` and the sign-in's result from
 * `?login=…`, or null when the path is not a phone link at all.
 *
 * @example readHandoff('/m/v/vr_abc', '#h=h_xyz') // { requestId: 'vr_abc', h: 'h_xyz', login: null }
 */
export function readHandoff(pathname: string, hash: string, search = ''): Handoff | null {
  const match = /^\/m\/v\/([^/]+)\/?$/.exec(pathname);
  const requestId = match?.[1] ? decodeURIComponent(match[1]) : null;
  if (!requestId || !REQUEST_ID.test(requestId)) return null;
  const h = new URLSearchParams(hash.replace(/^#/, '')).get('h');
  const login = new URLSearchParams(search).get('login');
  return {
    requestId,
    h: h && h.length <= 256 ? h : null,
    login: LOGIN_RESULTS.find((result) => result === login) ?? null,
  };
}

/** True at `/m/callback`: the service answered a provider's callback that names no sign-in of ours (400). */
export function isCallbackPage(pathname: string): boolean {
  return pathname === CALLBACK_PATH;
}

/**
 * Takes `h` and `login` out of the address bar (so `h` is not shared with a screenshot or a
 * copied link, and a reload does not replay the sign-in's result) and keeps `h` in this tab's
 * session storage, so a reload still works; an identity provider's sign-in comes back to the same
 * tab, which finds it there.
 *
 * @example const handoff = takeHandoff(window.location, window.history, window.sessionStorage)
 */
export function takeHandoff(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
  history: Pick<History, 'replaceState' | 'state'>,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
): Handoff | null {
  const handoff = readHandoff(location.pathname, location.hash, location.search);
  const query = new URLSearchParams(location.search);
  const hadLogin = query.has('login');
  query.delete('login');
  if (location.hash || hadLogin) {
    const rest = query.toString();
    const search = rest ? `?${rest}` : '';
    history.replaceState(history.state, '', location.pathname + (hadLogin ? search : location.search));
  }
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
