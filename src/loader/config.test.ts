import { describe, expect, expectTypeOf, it } from 'vitest';
import { LOADER_ATTRIBUTES } from '../protocol/wire.ts';
import type { RenderOptions } from '../shared/contract.ts';
import { isSameOriginPath, optionsToRaw, parseConfig, type RawConfig } from './config.ts';

const ORIGIN = 'https://widget.example';
const base: RawConfig = { partnerId: 'pk_test_demo', successPath: '/done' };

function problemOf(raw: RawConfig) {
  return parseConfig(raw, ORIGIN).problem;
}

describe('parseConfig', () => {
  it('applies every default of the attribute table in docs/embedding.md to a minimal STANDARD tag', () => {
    const { config, problem } = parseConfig(base, ORIGIN);
    expect(problem).toBeUndefined();
    expect(config).toMatchObject({
      apiOrigin: ORIGIN,
      partnerId: 'pk_test_demo',
      successPath: '/done',
      scopes: ['isAdult'],
      theme: 'dark',
      debug: false,
      clientProofMode: false,
      serverVerify: false,
      serverVerifyTimeoutSeconds: 30,
      layout: 'auto',
      size: 'regular',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every attribute when all are given', () => {
    const { config, problem } = parseConfig(
      {
        partnerId: 'pk_test_demo',
        successPath: '/account/verified?from=age',
        scopes: 'isAdult, isFrench,isUnique',
        locale: 'en',
        theme: 'light',
        container: 'age-box',
        debug: 'true',
        clientProofMode: 'true',
        serverVerify: 'true',
        serverVerifyEndpoint: '/api/age/confirm',
        serverVerifyTimeout: '12.5',
        onError: 'onAgeError',
        onSuccess: 'onAgeOk',
        onState: 'onAgeState',
        state: 'cart-42',
        layout: 'mobile',
        size: 'compact',
      },
      ORIGIN,
    );
    expect(problem).toBeUndefined();
    expect(config).toMatchObject({
      scopes: ['isAdult', 'isFrench', 'isUnique'],
      locale: 'en',
      theme: 'light',
      container: 'age-box',
      debug: true,
      clientProofMode: true,
      serverVerify: true,
      serverVerifyEndpoint: '/api/age/confirm',
      serverVerifyTimeoutSeconds: 12.5,
      onError: 'onAgeError',
      onSuccess: 'onAgeOk',
      onState: 'onAgeState',
      state: 'cart-42',
      layout: 'mobile',
      size: 'compact',
    });
  });

  it('accepts an ADULT_BLIND tag with a session token and ignores data-scopes there', () => {
    const { config, problem } = parseConfig(
      { sessionToken: 'aaa.bbb.ccc', successPath: '/done', scopes: 'isMale,isFemale' },
      ORIGIN,
    );
    expect(problem).toBeUndefined();
    expect(config.sessionToken).toBe('aaa.bbb.ccc');
  });

  it.each(['isAdult,isVampire', 'isAdult,isAdult', ' , ', 'isMale,isFemale'])(
    'leaves the scope rules to the service (its INVALID_SCOPES names the problem): %j sorted, no problem here',
    (scopes) => {
      const { config, problem } = parseConfig({ ...base, scopes }, ORIGIN);
      expect(problem).toBeUndefined();
      expect(config.scopes).toEqual(
        scopes
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .sort(),
      );
    },
  );

  it.each(['fr', 'en', 'de', 'es', 'it', 'nl', 'pt', 'auto', 'en-GB', 'DE', 'pt-BR', 'ja', ''])(
    'accepts the locale %j as written, a BCP 47 tag that never fails',
    (locale) => {
      const { config, problem } = parseConfig({ ...base, locale }, ORIGIN);
      expect(problem).toBeUndefined();
      expect(config.locale).toBe(locale);
    },
  );

  it.each(['#0a7d4f', '#0A7D4F', '#fc0', '#FFF'])('accepts the accent %s as written', (accent) => {
    const { config, problem } = parseConfig({ ...base, accent }, ORIGIN);
    expect(problem).toBeUndefined();
    expect(config.accent).toBe(accent);
  });

  it('accepts a redemption context of 32 bytes in base64url, and refuses any other', () => {
    const context = 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc'; // 32 bytes of 7;
    expect(parseConfig({ ...base, redemptionContext: context }, ORIGIN)).toMatchObject({
      config: { redemptionContext: context },
      problem: undefined,
    });
    for (const bad of ['', context.slice(1), `${context}=`, context.replace(/.$/, '+'), `${context}A`])
      expect(parseConfig({ ...base, redemptionContext: bad }, ORIGIN).problem).toBe('data-redemption-context invalid');
  });

  it('takes the accent from render() options under the same rules', () => {
    expect(parseConfig({ ...base, ...optionsToRaw({ accent: '#0a7d4f' }) }, ORIGIN).problem).toBeUndefined();
    const { problem } = parseConfig({ ...base, ...optionsToRaw({ accent: 'teal' }) }, ORIGIN);
    expect(problem).toBe('data-accent invalid');
  });

  it('takes the size from render() options under the same rules', () => {
    expect(parseConfig({ ...base, ...optionsToRaw({ size: 'compact' }) }, ORIGIN).config.size).toBe('compact');
    const { problem } = parseConfig({ ...base, ...optionsToRaw({ size: 'tiny' as never }) }, ORIGIN);
    expect(problem).toBe('data-size invalid');
  });

  it('treats a bare boolean attribute (data-debug) as true', () => {
    expect(parseConfig({ ...base, debug: '' }, ORIGIN).config.debug).toBe(true);
  });

  it.each([
    ['auto theme', { theme: 'auto' }, 'theme', 'auto'],
    ['auto locale', { locale: 'auto' }, 'locale', 'auto'],
    ['auto layout', { layout: 'auto' }, 'layout', 'auto'],
    ['the regular size', { size: 'regular' }, 'size', 'regular'],
    ['the compact size', { size: 'compact' }, 'size', 'compact'],
  ] as const)('accepts %s', (_name, extra, key, expected) => {
    const { config, problem } = parseConfig({ ...base, ...extra }, ORIGIN);
    expect(problem).toBeUndefined();
    expect(config[key]).toBe(expected);
  });

  it.each<[string, RawConfig, string, string]>([
    [
      'partner id and session token together',
      { ...base, sessionToken: 'a.b.c' },
      'data-session-token',
      'with data-partner-id',
    ],
    ['neither partner id nor session token', { successPath: '/done' }, 'data-partner-id', 'missing'],
    ['no success path', { partnerId: 'pk_test_demo' }, 'data-success-path', 'missing'],
    [
      'a success path with a scheme',
      { ...base, successPath: 'https://evil.example/done' },
      'data-success-path',
      'not same-origin',
    ],
    [
      'a protocol-relative success path',
      { ...base, successPath: '//evil.example/done' },
      'data-success-path',
      'not same-origin',
    ],
    [
      'a success path with a backslash',
      { ...base, successPath: '/\\evil.example' },
      'data-success-path',
      'not same-origin',
    ],
    [
      'a success path without a leading slash',
      { ...base, successPath: 'done' },
      'data-success-path',
      'not same-origin',
    ],
    [
      'a javascript: success path',
      { ...base, successPath: 'javascript:alert(1)' },
      'data-success-path',
      'not same-origin',
    ],
    [
      'a success path hiding // behind a tab',
      { ...base, successPath: '/\t/evil.example' },
      'data-success-path',
      'not same-origin',
    ],
    ['server-verify without an endpoint', { ...base, serverVerify: 'true' }, 'data-server-verify-endpoint', 'missing'],
    [
      'a cross-origin server-verify endpoint',
      { ...base, serverVerify: 'true', serverVerifyEndpoint: 'https://evil.example/ok' },
      'data-server-verify-endpoint',
      'not same-origin',
    ],
    [
      'a cross-origin endpoint even without server-verify',
      { ...base, serverVerifyEndpoint: 'https://evil.example/ok' },
      'data-server-verify-endpoint',
      'not same-origin',
    ],
    [
      'a protocol-relative server-verify endpoint',
      { ...base, serverVerify: 'true', serverVerifyEndpoint: '//evil.example/ok' },
      'data-server-verify-endpoint',
      'not same-origin',
    ],
    ['a non-numeric timeout', { ...base, serverVerifyTimeout: 'soon' }, 'data-server-verify-timeout', 'invalid'],
    ['a zero timeout', { ...base, serverVerifyTimeout: '0' }, 'data-server-verify-timeout', 'invalid'],
    ['a negative timeout', { ...base, serverVerifyTimeout: '-5' }, 'data-server-verify-timeout', 'invalid'],
    ['a timeout over ten minutes', { ...base, serverVerifyTimeout: '601' }, 'data-server-verify-timeout', 'invalid'],
    ['an unknown theme', { ...base, theme: 'blue' }, 'data-theme', 'invalid'],
    ['a named accent colour', { ...base, accent: 'green' }, 'data-accent', 'invalid'],
    ['an accent with four hex digits', { ...base, accent: '#0a7d' }, 'data-accent', 'invalid'],
    ['an accent with alpha', { ...base, accent: '#0a7d4fcc' }, 'data-accent', 'invalid'],
    ['an accent without its #', { ...base, accent: '0a7d4f' }, 'data-accent', 'invalid'],
    ['an accent that is a CSS function', { ...base, accent: 'rgb(10,125,79)' }, 'data-accent', 'invalid'],
    ['an accent smuggling CSS', { ...base, accent: '#fff;}*{display:none' }, 'data-accent', 'invalid'],
    ['an accent with a trailing newline', { ...base, accent: '#0a7d4f\n' }, 'data-accent', 'invalid'],
    ['an empty accent', { ...base, accent: '' }, 'data-accent', 'invalid'],
    ['an unknown layout', { ...base, layout: 'tablet' }, 'data-layout', 'invalid'],
    ['an unknown size', { ...base, size: 'small' }, 'data-size', 'invalid'],
    ['a size in the wrong case', { ...base, size: 'Compact' }, 'data-size', 'invalid'],
    ['an empty size', { ...base, size: '' }, 'data-size', 'invalid'],
    ['a boolean that is not true or false', { ...base, serverVerify: 'yes' }, 'data-server-verify', 'invalid'],
    [
      'a client-proof-mode that is not true or false',
      { ...base, clientProofMode: '1' },
      'data-client-proof-mode',
      'invalid',
    ],
  ])('fails with INIT_FAILED naming the attribute for %s', (_name, raw, attribute, problem) => {
    expect(problemOf(raw)).toBe(`${attribute} ${problem}`);
  });

  it('still returns a usable config beside a problem, so the error state can render', () => {
    const { config, problem } = parseConfig({ theme: 'light', locale: 'en' }, ORIGIN);
    expect(problem).toBe('data-partner-id missing');
    expect(config).toMatchObject({ theme: 'light', locale: 'en', serverVerifyTimeoutSeconds: 30 });
  });
});

describe('isSameOriginPath', () => {
  it('accepts paths with a query and a fragment on the page origin', () => {
    expect(isSameOriginPath('/')).toBe(true);
    expect(isSameOriginPath('/a/b?c=d&e=%2F')).toBe(true);
  });

  it.each(['//x.example', '/\\x.example', 'http://localhost:3000/', 'x', '', ' /a', '/a b', '/\n/x.example'])(
    'refuses %j',
    (path) => {
      expect(isSameOriginPath(path)).toBe(false);
    },
  );

  it('accepts only what resolves to the page origin: 20,000 strings of URL-significant characters', () => {
    // the characters that make a URL parser change its mind: slashes, backslashes, the whitespace
    // and controls it strips, a scheme's colon, dots, percent escapes, an at sign, ? and #
    const alphabet = [
      '/',
      '/',
      '\\',
      '\t',
      '\n',
      '\r',
      ' ',
      '\0',
      '\x7f',
      ':',
      '.',
      '%2f',
      '%5c',
      '@',
      '?',
      '#',
      'a',
      'é',
    ];
    let seed = 1;
    const next = (n: number): number => ((seed = (seed * 48271) % 2147483647), seed % n);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const path = (i % 2 ? '/' : '') + Array.from({ length: next(8) }, () => alphabet[next(alphabet.length)]).join('');
      if (!isSameOriginPath(path)) continue;
      accepted++;
      expect(new URL(path, location.href).origin, JSON.stringify(path)).toBe(location.origin);
    }
    expect(accepted).toBeGreaterThan(1000);
  });
});

describe('optionsToRaw', () => {
  it('turns render() options into attribute values', () => {
    expect(
      optionsToRaw({ scopes: ['isAdult', 'isEU'], debug: true, serverVerifyTimeout: 10, state: undefined }),
    ).toEqual({
      scopes: 'isAdult,isEU',
      debug: 'true',
      serverVerifyTimeout: '10',
    });
  });
});

describe('LOADER_ATTRIBUTES', () => {
  it('names every render() option, plus the two only a script tag has (data-render, data-container)', () => {
    // checked by the compiler (npx tsc -p src): a new option without its name here fails the build
    expectTypeOf<(typeof LOADER_ATTRIBUTES)[number]>().toEqualTypeOf<keyof RenderOptions | 'render' | 'container'>();
    expect(new Set(LOADER_ATTRIBUTES).size).toBe(LOADER_ATTRIBUTES.length);
  });
});
