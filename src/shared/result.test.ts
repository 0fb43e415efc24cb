import { afterEach, describe, expect, it } from 'vitest';
import { isCurrentPage, parseResultFragment, resultUrl, takeResultFromLocation } from './result.ts';

afterEach(() => history.replaceState(null, '', '/'));

describe('parseResultFragment', () => {
  it('reads a grant code, with and without state', () => {
    expect(parseResultFragment('#grant_code=g_abc')).toEqual({ grant_code: 'g_abc' });
    expect(parseResultFragment('#grant_code=g_abc&state=cart%2042')).toEqual({ grant_code: 'g_abc', state: 'cart 42' });
  });

  it('reads an attestation', () => {
    expect(parseResultFragment('#attestation=aaa.bbb.ccc&state=x')).toEqual({ attestation: 'aaa.bbb.ccc', state: 'x' });
  });

  it('returns null for fragments without a result', () => {
    for (const hash of ['', '#', '#section-2', '#grant_code=', '#state=only'])
      expect(parseResultFragment(hash)).toBeNull();
  });
});

describe('takeResultFromLocation', () => {
  it('returns the result and leaves the address without it, path and query kept', () => {
    history.replaceState(null, '', '/account/done?tab=2#grant_code=g_abc&state=s1');
    const before = history.length;
    expect(takeResultFromLocation()).toEqual({ grant_code: 'g_abc', state: 's1' });
    expect(location.pathname + location.search + location.hash).toBe('/account/done?tab=2');
    expect(history.length).toBe(before);
  });

  it('leaves an address without a result untouched', () => {
    history.replaceState(null, '', '/page#section');
    expect(takeResultFromLocation()).toBeNull();
    expect(location.hash).toBe('#section');
  });
});

describe('resultUrl', () => {
  it('puts the result and the state in the fragment of the success path', () => {
    expect(resultUrl('/done?x=1', { grant_code: 'g_a+b' })).toBe('/done?x=1#grant_code=g_a%2Bb');
    expect(resultUrl('/done#old', { attestation: 'a.b.c', state: 'a&b=c' })).toBe(
      '/done#attestation=a.b.c&state=a%26b%3Dc',
    );
  });

  it('round-trips through parseResultFragment', () => {
    const url = resultUrl('/d', { grant_code: 'g_x', state: 'é &=#' });
    expect(parseResultFragment(url.slice(url.indexOf('#')))).toEqual({ grant_code: 'g_x', state: 'é &=#' });
  });
});

describe('isCurrentPage', () => {
  it('compares path and query, ignoring any fragment', () => {
    history.replaceState(null, '', '/checkout?step=2#top');
    expect(isCurrentPage('/checkout?step=2')).toBe(true);
    expect(isCurrentPage('/checkout')).toBe(false);
    expect(isCurrentPage('/checkout?step=3')).toBe(false);
  });
});
