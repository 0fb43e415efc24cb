/**
 * The login cookie (docs/providers.md, "One browser"): a provider login counts only in the browser
 * that started it. `POST …/providers/:providerId/start` sets it; the callback must bring it back.
 * The store keeps only its digest, with the login state; the value itself is never stored or
 * logged. As openid-client's examples keep the PKCE verifier and nonce in the end user's session,
 * so this ties the login state to the phone's browser session.
 *
 * - `__Host-svc_login`, Secure, where the app URL is https; `svc_login` on an http app URL
 *   (loopback, development);
 * - HttpOnly, SameSite=Lax (the provider sends the visitor back with a top-level GET), Path=/,
 *   Max-Age at most the request's remaining lifetime.
 *
 * A browser that already holds a well-formed one keeps its value (two tabs, two requests, a second
 * try), so starting a login never strands another login of the same browser.
 */
import { randomBytes } from 'node:crypto';

const NAME = 'svc_login';
/** 256 random bits, base64url */
const VALUE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The cookie's name for this app URL: `__Host-` prefixed where the app URL is https. */
export function loginCookieName(appUrl: string): string {
  return new URL(appUrl).protocol === 'https:' ? `__Host-${NAME}` : NAME;
}

/**
 * The login cookie's value from a `Cookie` header, or null (absent, repeated with different
 * values, or not a value this service makes).
 *
 * @example readLoginCookie('a=1; svc_login=…', 'http://localhost:8787') // '…'
 */
export function readLoginCookie(header: string | undefined, appUrl: string): string | null {
  if (header === undefined) return null;
  const name = loginCookieName(appUrl);
  const values = new Set<string>();
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) values.add(pair.slice(at + 1).trim());
  }
  const [value] = values;
  return values.size === 1 && VALUE_SHAPE.test(value!) ? value! : null;
}

/** The value to set: the browser's own when it brought a well-formed one, else 256 fresh random bits. */
export function loginCookieValue(current: string | null): string {
  return current ?? randomBytes(32).toString('base64url');
}

/**
 * The `Set-Cookie` header for `value`, living `maxAgeSeconds` (at least 1).
 *
 * @example setLoginCookie('https://verify.example', value, 240) // '__Host-svc_login=…; Max-Age=240; Path=/; HttpOnly; SameSite=Lax; Secure'
 */
export function setLoginCookie(appUrl: string, value: string, maxAgeSeconds: number): string {
  const secure = new URL(appUrl).protocol === 'https:' ? '; Secure' : '';
  const maxAge = Math.max(1, Math.floor(maxAgeSeconds));
  return `${loginCookieName(appUrl)}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}
