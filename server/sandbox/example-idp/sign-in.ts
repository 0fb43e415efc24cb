/**
 * A visitor at the example identity provider, played with plain fetch (no browser): follows the
 * redirects by hand with a cookie jar, reads the login page, submits its form, and stops at the
 * relying party's redirect URI. For tests, here and in the service's route tests.
 */

export interface SignInChoice {
  /** the persona to approve as; absent with decision decline */
  persona?: string;
  decision: 'approve' | 'decline';
  /** the relying party's redirect URI: where the walk stops */
  redirectUri: string;
  /** the browser's cookies (name → value), kept across sign-ins; a fresh jar by default */
  cookies?: Map<string, string>;
}

export interface SignInResult {
  /** the authorization response, as the relying party would receive it */
  callbackUrl: URL;
  /** the login page as served, and its Content-Security-Policy */
  loginPage: { html: string; csp: string | null };
}

const MAX_STEPS = 10;

function reachedRedirect(url: URL, redirectUri: string): boolean {
  const target = new URL(redirectUri);
  return url.origin === target.origin && url.pathname === target.pathname;
}

/**
 * Walks from the authorization URL to the callback: login page, form post, redirects.
 *
 * @example
 * const { callbackUrl } = await signInAtExampleProvider(start.authorizationUrl,
 *   { persona: 'fr-adult-m', decision: 'approve', redirectUri });
 */
export async function signInAtExampleProvider(authorizationUrl: string, choice: SignInChoice): Promise<SignInResult> {
  const cookies = choice.cookies ?? new Map<string, string>();
  const cookieHeader = (): string => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let loginPage: SignInResult['loginPage'] | null = null;
  let request: { url: URL; init: RequestInit } = { url: new URL(authorizationUrl), init: { method: 'GET' } };

  for (let step = 0; step < MAX_STEPS; step++) {
    const response = await fetch(request.url, {
      ...request.init,
      redirect: 'manual',
      headers: { ...(request.init.headers as Record<string, string>), cookie: cookieHeader() },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at).trim(), pair!.slice(at + 1).trim()];
      if (value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      const next = new URL(location, request.url);
      if (reachedRedirect(next, choice.redirectUri)) {
        if (loginPage === null) throw new Error('the provider answered without showing its login page');
        return { callbackUrl: next, loginPage };
      }
      request = { url: next, init: { method: 'GET' } };
      continue;
    }
    const html = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || action === undefined || loginPage !== null)
      throw new Error(`unexpected answer ${response.status} at ${request.url.pathname}`);
    loginPage = { html, csp: response.headers.get('content-security-policy') };
    const form = new URLSearchParams({ decision: choice.decision });
    if (choice.persona !== undefined) form.set('persona', choice.persona);
    request = {
      url: new URL(action.replace(/&#38;/g, '&'), request.url),
      init: { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    };
  }
  throw new Error('too many redirects');
}
