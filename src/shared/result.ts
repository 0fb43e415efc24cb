/**
 * The result in the address fragment (docs/embedding.md#after-success; design.md §7): written by the
 * widget on success (`resultUrl`, `isCurrentPage`), read once by the loader on the page that
 * receives it (`takeResultFromLocation`), then cleared from the address bar so it leaks neither
 * through Referer nor through history.
 */
import type { SvcResult } from './contract.ts';

/**
 * Reads `#grant_code=…` or `#attestation=…` (with `&state=…` when present) from `location.hash`: the
 * string starts with its `#`, or is empty.
 *
 * @example parseResultFragment('#grant_code=g_abc&state=cart-42') // { grant_code: 'g_abc', state: 'cart-42' }
 */
export function parseResultFragment(hash: string): SvcResult | null {
  const params = new URLSearchParams(hash.slice(1));
  const key = ['grant_code', 'attestation'].find((name) => params.get(name));
  return key
    ? ({ [key]: params.get(key), ...(params.has('state') && { state: params.get('state') }) } as SvcResult)
    : null;
}

/**
 * Takes the result out of the current address: returns it and rewrites the address without the
 * fragment (path and query kept, no new history entry). Null, and no change, when there is none.
 *
 * @example const result = takeResultFromLocation(); // address bar now ends at the query
 */
export function takeResultFromLocation(): SvcResult | null {
  const result = parseResultFragment(location.hash);
  if (result) history.replaceState(history.state, '', location.pathname + location.search);
  return result;
}

/**
 * Where success sends the visitor: the success path with the result in the fragment.
 *
 * @example resultUrl('/done?x=1', { attestation: 'a.b.c' }) // '/done?x=1#attestation=a.b.c'
 */
export function resultUrl(successPath: string, result: SvcResult): string {
  const [key, value] = 'grant_code' in result ? ['grant_code', result.grant_code] : ['attestation', result.attestation];
  const state = result.state === undefined ? '' : '&state=' + encodeURIComponent(result.state);
  return successPath.split('#')[0] + '#' + key + '=' + encodeURIComponent(value) + state;
}

/**
 * True when the success path is the page the visitor is on (same path and query): then the
 * widget hands the result over without a reload.
 *
 * @example isCurrentPage('/checkout?step=2') // on https://shop.example/checkout?step=2 → true
 */
export function isCurrentPage(successPath: string): boolean {
  const target = new URL(successPath, location.href);
  return target.pathname + target.search === location.pathname + location.search;
}
