import type { FastifyInstance } from 'fastify';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock.ts';
import { makeTestApp, PARTNERS, putTestGrant, type TestApp } from '../test/helpers.ts';
import { createPartnerApp } from './app.ts';
import { PAGE_LOCALES } from './copy.ts';

/** What a shopper must never read on a success page: scope names, attribute keys, method ids. */
const RAW_IDENTIFIERS = [
  ...['isAdult', 'isFrench', 'isEU', 'isMale', 'isFemale', 'isUnique', 'revealNationality', 'revealBirthYear'],
  ...['age_over_18', 'is_french', 'is_eu', 'is_male', 'is_female', 'birth_year', 'verification_method'],
  ...['face_check', 'eudi_wallet'],
];

/** The text a page shows (tags, attributes and the dev notes in English left out). */
const visibleText = (html: string) =>
  html
    .replace(/<section class="dev"[\s\S]*?<\/section>/g, '')
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ');

/** Every `href` of the index's list of pages. */
const pageLinks = (html: string) =>
  [.../<ul class="pages"[\s\S]*?<\/ul>/.exec(html)![0].matchAll(/href="([^"]+)"/g)].map((m) =>
    m[1]!.replaceAll('&amp;', '&'),
  );

let service: TestApp;
let serviceUrl: string;
let partner: FastifyInstance;

beforeAll(async () => {
  // The SDK signs with the real time, so the service's clock starts at the real time too.
  service = await makeTestApp({ clock: createFakeClock(Date.now()) });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  serviceUrl = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
  partner = await createPartnerApp({ partnerPort: 8788, serviceUrl, partner: PARTNERS.demo });
});

afterAll(async () => {
  await partner?.close();
  await service?.close();
});

/** The `name=value` of the session cookie a response set. */
const sessionCookie = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;
const exchange = (grantCode: unknown, cookie?: string) =>
  partner.inject({
    method: 'POST',
    url: '/api/exchange',
    payload: { grant_code: grantCode },
    headers: cookie ? { cookie } : {},
  });
const confirm = (grantCode: string, query = '', cookie?: string) =>
  partner.inject({
    method: 'GET',
    url: `/api/confirm${query}`,
    headers: { 'X-SVC-Grant-Code': grantCode, ...(cookie ? { cookie } : {}) },
  });

describe('example partner pages', () => {
  it('embeds the loader from the service with the partner ID and a success path', async () => {
    const res = await partner.inject('/standard');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(`<script async src="${serviceUrl}/v4/loader.min.js"`);
    expect(res.body).toContain('data-partner-id="pk_test_demo"');
    expect(res.body).toContain('data-success-path="/success"');
    expect(res.body).not.toContain(PARTNERS.demo.secret);
  });

  it('serves every page under a CSP that allows only itself and the service, never unsafe-inline', async () => {
    for (const path of [
      '/',
      '/?locale=de',
      '/standard',
      '/server-verify',
      '/server-verify-timeout',
      '/same-page',
      '/success',
    ]) {
      const res = await partner.inject(path);
      expect(res.statusCode, path).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain(`script-src 'self' ${serviceUrl}`);
      expect(csp).toContain(`style-src 'self' ${serviceUrl}`);
      expect(csp).not.toContain('unsafe');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('ships no inline script, inline style or unfilled placeholder in any page', () => {
    const dir = new URL('./public/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.html'))) {
      const html = readFileSync(new URL(file, dir), 'utf8');
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag, file).toMatch(/\ssrc="/);
      expect(html, file).not.toMatch(/<style\b|\sstyle="|\son[a-z]+="/);
    }
  });

  it('points the server-verify pages at the confirmation endpoint, the timeout variant at ?never=1 with 3 s', async () => {
    const verify = await partner.inject('/server-verify');
    expect(verify.body).toContain('data-server-verify="true"');
    expect(verify.body).toContain('data-server-verify-endpoint="/api/confirm"');
    const timeout = await partner.inject('/server-verify-timeout');
    expect(timeout.body).toContain('data-server-verify-endpoint="/api/confirm?never=1"');
    expect(timeout.body).toContain('data-server-verify-timeout="3"');
  });

  it('makes the same-page result page its own success path, with its own options', async () => {
    const res = await partner.inject('/same-page');
    expect(res.body).toContain('data-success-path="/same-page"');
    const italian = await partner.inject('/same-page?locale=it&theme=light');
    expect(italian.body).toContain('data-success-path="/same-page?locale=it&amp;theme=light"');
  });

  it('writes English pages with an English widget by default, success path without a locale', async () => {
    const res = await partner.inject('/standard');
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('<h1>Verify your age to continue</h1>');
    expect(res.body).toContain('data-locale="en"');
    expect(res.body).toContain('data-success-path="/success"');
    expect(res.body).toContain('<span data-testid="scopes">18 or older</span>');
  });

  it('writes a page in the language of ?locale=, gives the widget that locale and the success page too', async () => {
    const res = await partner.inject('/server-verify?locale=de&scopes=isAdult,isFrench');
    expect(res.body).toContain('<html lang="de">');
    expect(res.body).toContain('<h1>Bestätigen Sie Ihr Alter, geprüft von unserem Server</h1>');
    expect(res.body).toContain('<span data-testid="scopes">18 oder älter · Französische Staatsangehörigkeit</span>');
    expect(res.body).toContain('data-locale="de"');
    expect(res.body).toContain('data-success-path="/success?locale=de"');
    expect(res.body).toContain('<a class="brand" href="/?locale=de">');
    // data-locale="auto" stays possible: the widget then reads the page's <html lang>.
    expect((await partner.inject('/standard?locale=auto')).body).toContain('data-locale="auto"');
  });

  it('passes checked widget options from the query to the loader tag', async () => {
    const res = await partner.inject('/standard?scopes=isAdult,isFrench&theme=light&locale=en');
    expect(res.body).toContain('data-scopes="isAdult,isFrench"');
    expect(res.body).toContain('data-theme="light"');
    expect(res.body).toContain('data-locale="en"');
  });

  it('never reflects a query value the loader would not accept', async () => {
    const hostile = encodeURIComponent('"><script>alert(1)</script>');
    const res = await partner.inject(`/standard?scopes=${hostile}&theme=${hostile}&locale=${hostile}`);
    expect(res.body).not.toContain('alert(1)');
    expect(res.body).toContain('data-scopes="isAdult"');
    expect(res.body).toContain('data-theme="dark"');
    expect(res.body).toContain('data-locale="en"');
    const both = await partner.inject('/standard?scopes=isMale,isFemale');
    expect(both.body).toContain('data-scopes="isAdult"');
  });

  it("links every widget page of the index in the index's own language", async () => {
    const english = await partner.inject('/');
    expect(english.body).toContain('<html lang="en">');
    expect(pageLinks(english.body).length).toBeGreaterThanOrEqual(9);
    for (const href of pageLinks(english.body)) expect(href).not.toContain('locale=');
    for (const locale of PAGE_LOCALES.filter((l) => l !== 'en')) {
      const res = await partner.inject(`/?locale=${locale}`);
      expect(res.body, locale).toContain(`<html lang="${locale}">`);
      expect(res.body, locale).toContain(`hreflang="${locale}" lang="${locale}" aria-current="page"`);
      for (const href of pageLinks(res.body)) expect(href, locale).toMatch(new RegExp(`\\?locale=${locale}(&|$)`));
    }
  });

  it('links the client proof mode pages from the index, in plain words', async () => {
    const res = await partner.inject('/');
    expect(res.body).toContain('<a href="/standard?proof=1">Prove your age with an EU wallet</a>');
    expect(res.body).toContain('<a href="/blind?proof=1">Prove your age anonymously with an EU wallet</a>');
    const french = await partner.inject('/?locale=fr');
    expect(pageLinks(french.body)).toEqual(expect.arrayContaining(['/standard?locale=fr&proof=1']));
    expect((await partner.inject('/standard?proof=1')).body).toContain('data-client-proof-mode="true"');
  });

  it('serves the success page in the language of ?locale=, never with a raw identifier or "Welcome in"', async () => {
    for (const locale of PAGE_LOCALES) {
      const res = await partner.inject(`/success?locale=${locale}`);
      expect(res.statusCode).toBe(200);
      expect(res.body, locale).toContain(`<html lang="${locale}">`);
      const text = visibleText(res.body);
      expect(text, locale).not.toContain('Welcome in');
      for (const raw of RAW_IDENTIFIERS) expect(text, `${locale}: ${raw}`).not.toContain(raw);
      // The script's words for the result card, in the page's language.
      const words = JSON.parse(/data-words="([^"]*)"/.exec(res.body)![1]!.replaceAll('&quot;', '"'));
      for (const raw of RAW_IDENTIFIERS) expect(JSON.stringify(Object.values(words))).not.toContain(raw);
    }
    expect((await partner.inject('/success?locale=fr')).body).toContain('<h1>Votre vérification d’âge</h1>');
    expect((await partner.inject('/success?locale=xx')).body).toContain('<html lang="en">');
  });

  it('answers /favicon.ico with nothing rather than a 404, and names an SVG icon on every page', async () => {
    const ico = await partner.inject('/favicon.ico');
    expect(ico.statusCode).toBe(204);
    const svg = await partner.inject('/assets/favicon.svg');
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body.length).toBeLessThan(1024);
    const dir = new URL('./public/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.html'))) {
      expect(readFileSync(new URL(file, dir), 'utf8'), file).toContain(
        '<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">',
      );
    }
  });

  it('serves its scripts and styles with their content types and nothing else from /assets', async () => {
    const js = await partner.inject('/assets/success.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const css = await partner.inject('/assets/style.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    for (const path of ['/assets/index.html', '/assets/..%2Fapp.ts', '/assets/nope.js', '/app.ts']) {
      const res = await partner.inject(path);
      expect(res.statusCode, path).toBe(404);
    }
  });
});

describe('example partner pages on the wire', () => {
  it('sends its pages and assets compressed by Accept-Encoding, the same bytes and headers each way', async () => {
    for (const path of ['/', '/standard?locale=en', '/assets/exchange.js', '/assets/style.css']) {
      const plain = await partner.inject(path);
      const br = await partner.inject({ url: path, headers: { 'accept-encoding': 'gzip, br' } });
      const gzip = await partner.inject({ url: path, headers: { 'accept-encoding': 'br;q=0, gzip' } });
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(gzip.headers['content-encoding'], path).toBe('gzip');
      expect(brotliDecompressSync(br.rawPayload).toString(), path).toBe(plain.body);
      expect(gunzipSync(gzip.rawPayload).toString(), path).toBe(plain.body);
      expect(br.rawPayload.length, path).toBeLessThan(plain.rawPayload.length);
      for (const res of [br, gzip]) {
        expect(res.headers.vary, path).toMatch(/accept-encoding/i);
        for (const name of ['content-type', 'content-security-policy', 'cache-control']) {
          expect(res.headers[name], `${path} ${name}`).toEqual(plain.headers[name]);
        }
      }
    }
  });
});

describe('example partner ADULT_BLIND pages', () => {
  it('are served only when a blind partner is configured, with a fresh session token per load', async () => {
    expect((await partner.inject('/blind')).statusCode).toBe(404);
    const withBlind = await createPartnerApp({
      partnerPort: 8788,
      serviceUrl,
      partner: PARTNERS.demo,
      blind: { partner: PARTNERS.blindShop, appId: 'app_blind_shop' },
    });
    try {
      const tokens = [];
      for (let i = 0; i < 2; i++) {
        const res = await withBlind.inject('/blind');
        expect(res.statusCode).toBe(200);
        const token = /data-session-token="([^"]+)"/.exec(res.body)?.[1];
        expect(token).toMatch(/^ey/);
        expect(res.body).not.toContain('data-partner-id');
        expect(res.body).not.toContain(PARTNERS.blindShop.id);
        tokens.push(token);
      }
      expect(tokens[0]).not.toBe(tokens[1]);
    } finally {
      await withBlind.close();
    }
  });
});

describe('example partner backend', () => {
  it('exchanges a grant through the SDK and answers the attributes, never the pass token', async () => {
    const grant = await putTestGrant(service.deps, { scopes: ['isAdult', 'isFrench'] });
    const res = await exchange(grant);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      verified: true,
      source: 'exchange',
      scopes: ['isAdult', 'isFrench'],
      age_over_18: true,
    });
    expect(body.attributes).toEqual({ age_over_18: true, is_french: true, verification_method: 'face_check' });
    expect(res.body).not.toMatch(/p_[A-Za-z0-9_-]{20,}/);
  });

  it('answers the facts in plain words, in the language the success page asks in', async () => {
    const grant = await putTestGrant(service.deps, { scopes: ['isAdult', 'isFrench'], method: 'eudi_wallet' });
    const res = await partner.inject({
      method: 'POST',
      url: '/api/exchange',
      payload: { grant_code: grant, locale: 'fr' },
    });
    expect(res.json().facts).toEqual([
      { name: 'age_over_18', label: '18 ans ou plus', value: 'oui' },
      { name: 'is_french', label: 'Nationalité française', value: 'oui' },
      { name: 'verification_method', label: 'Vérifié avec', value: 'un portefeuille d’identité numérique européen' },
    ]);
  });

  it('never puts a raw identifier in the words a success page shows, whatever was asked', async () => {
    const scopes = [
      'isAdult',
      'isFrench',
      'isEU',
      'isMale',
      'isUnique',
      'revealNationality',
      'revealBirthYear',
    ] as const;
    for (const locale of PAGE_LOCALES) {
      const grant = await putTestGrant(service.deps, { scopes: [...scopes] });
      const res = await partner.inject({
        method: 'POST',
        url: '/api/exchange',
        payload: { grant_code: grant, locale },
      });
      const facts: { label: string; value: string }[] = res.json().facts;
      expect(facts, locale).toHaveLength(scopes.length + 1);
      const shown = facts.map((f) => `${f.label}: ${f.value}`).join('\n');
      for (const raw of RAW_IDENTIFIERS) expect(shown, `${locale}: ${raw}`).not.toContain(raw);
    }
  });

  it("answers the same session's second post of a grant from memory instead of spending it again", async () => {
    const cookie = sessionCookie(await exchange('g_' + 'S'.repeat(43)));
    const grant = await putTestGrant(service.deps);
    const [first, second] = await Promise.all([exchange(grant, cookie), exchange(grant, cookie)]);
    const third = await exchange(grant, cookie);
    const sources = [first, second, third].map((r) => r.json().source).sort();
    expect(sources).toEqual(['exchange', 'remembered', 'remembered']);
    for (const r of [first, second, third])
      expect(r.json().attributes).toEqual({ age_over_18: true, verification_method: 'face_check' });
  });

  it('passes the service error code through when the grant does not check out', async () => {
    const unknown = await exchange('g_' + 'A'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ verified: false, error: 'GRANT_INVALID' });
    const malformed = await exchange('not-a-grant');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('INVALID_GRANT');
  });

  it('refuses a body without a grant code', async () => {
    for (const payload of [{}, { grant_code: 42 }, { grant_code: '' }]) {
      const res = await partner.inject({ method: 'POST', url: '/api/exchange', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('INVALID_REQUEST');
    }
  });

  it('confirms a grant by exchanging it, and the success page of the same session then gets the remembered answer', async () => {
    const grant = await putTestGrant(service.deps, { scopes: ['isAdult'] });
    const res = await confirm(grant);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ verified: true });
    const cookie = sessionCookie(res);
    expect((await confirm(grant, '', cookie)).json()).toEqual({ verified: true });
    const after = await exchange(grant, cookie);
    expect(after.json()).toMatchObject({ verified: true, source: 'remembered', attributes: { age_over_18: true } });
  });

  it('does not confirm a missing, malformed or unknown grant', async () => {
    expect((await partner.inject('/api/confirm')).json()).toEqual({ verified: false });
    expect((await confirm('nope')).json()).toEqual({ verified: false });
    expect((await confirm('g_' + 'B'.repeat(43))).json()).toEqual({ verified: false });
  });

  it('never confirms with ?never=1 and leaves the grant unspent', async () => {
    const grant = await putTestGrant(service.deps);
    expect((await confirm(grant, '?never=1')).json()).toEqual({ verified: false });
    expect((await exchange(grant)).json().source).toBe('exchange');
  });

  it('answers 502 INTERNAL_ERROR when the service cannot be reached', async () => {
    const offline = await createPartnerApp({
      partnerPort: 8788,
      serviceUrl: 'http://127.0.0.1:9',
      partner: PARTNERS.demo,
      clientOptions: { sleep: async () => {} },
    });
    try {
      const res = await offline.inject({
        method: 'POST',
        url: '/api/exchange',
        payload: { grant_code: 'g_' + 'C'.repeat(43) },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('INTERNAL_ERROR');
    } finally {
      await offline.close();
    }
  });
});
