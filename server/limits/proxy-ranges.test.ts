import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { measureTrustedRanges, PUBLIC_IPV4_CEILING, tooWideProxyRanges } from './proxy-ranges.ts';

const slash = (family: 4 | 6, prefix: number, index: number): string => {
  if (family === 4) {
    const value = index << (32 - prefix);
    return `${[24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('.')}/${prefix}`;
  }
  return `${(index << (16 - prefix)).toString(16)}::/${prefix}`;
};

describe('tooWideProxyRanges', () => {
  it.each([
    ['two halves of IPv4', ['0.0.0.0/1', '128.0.0.0/1'], 'all of IPv4'],
    ['four /2s of IPv4', [0, 1, 2, 3].map((i) => slash(4, 2, i)), 'all of IPv4'],
    ['256 /8s of IPv4, out of order', Array.from({ length: 256 }, (_, i) => slash(4, 8, 255 - i)), 'all of IPv4'],
    [
      'overlapping halves with keywords in between',
      ['0.0.0.0/1', 'loopback', '64.0.0.0/2', '128.0.0.0/1'],
      'all of IPv4',
    ],
    ['IPv4 through its IPv6-mapped block', ['::ffff:0.0.0.0/97', '::ffff:128.0.0.0/97'], 'all of IPv4'],
    ['IPv4-mapped and plain IPv4 mixed', ['::ffff:0.0.0.0/97', '128.0.0.0/1'], 'all of IPv4'],
    ['an IPv6 range over the mapped block', ['::/64', '2001:db8::1'], 'all of IPv4'],
    ['two halves of IPv6', ['::/1', '8000::/1'], 'all of IPv6'],
    ['four /2s of IPv6', [0, 1, 2, 3].map((i) => slash(6, 2, i)), 'all of IPv6'],
  ])('refuses %s', (_, entries, why) => {
    expect(tooWideProxyRanges(entries)).toBe(`together they cover ${why}`);
  });

  it('refuses more public IPv4 than a /8, however split, and counts overlaps once', () => {
    expect(tooWideProxyRanges(['1.0.0.0/8'])).toBeNull();
    expect(tooWideProxyRanges(['1.0.0.0/9', '1.128.0.0/9', '1.0.0.0/10'])).toBeNull();
    expect(tooWideProxyRanges(['1.0.0.0/8', '2.0.0.0/32'])).toBe(
      `together they cover ${PUBLIC_IPV4_CEILING + 1n} public IPv4 addresses, more than a /8's worth (16777216)`,
    );
    expect(tooWideProxyRanges(['0.0.0.0/1'])).toMatch(/2113929216 public IPv4 addresses/); // the private /8s of the half not counted;
    expect(tooWideProxyRanges(['203.0.113.0/24', ...Array.from({ length: 4 }, (_, i) => slash(4, 10, i + 4))])).toMatch(
      /public IPv4 addresses, more than a \/8's worth/,
    );
  });

  it('refuses more public IPv6 than a /24, and allows a few providers /32s', () => {
    expect(tooWideProxyRanges(['2001:db8::/32', '2400:cb00::/32', '2a06:98c0::/29'])).toBeNull();
    expect(tooWideProxyRanges(['2001::/23'])).toBe(
      "together they cover more public IPv6 addresses than a /24's worth (2^104)",
    );
    expect(tooWideProxyRanges(['::/1'])).not.toBeNull();
  });

  it('does not count the private ranges the keywords name against the ceiling', () => {
    expect(tooWideProxyRanges(['loopback', 'linklocal', 'uniquelocal', '10.0.0.0/8', 'fc00::/7'])).toBeNull();
    expect(measureTrustedRanges(['uniquelocal', '10.1.0.0/16'])).toEqual({
      4: { all: (1n << 24n) + (1n << 20n) + (1n << 16n), public: 0n },
      6: { all: 1n << 121n, public: 0n },
    });
  });

  it('measures a CIDR with host bits set as the proxy check reads it', () => {
    expect(measureTrustedRanges(['10.0.0.5/8', '10.200.0.0/16'])[4].all).toBe(1n << 24n);
  });
});

describe('SVC_TRUST_PROXY at boot', () => {
  it.each([
    ['0.0.0.0/1,128.0.0.0/1', /all of IPv4/],
    ['0.0.0.0/2, 64.0.0.0/2, 128.0.0.0/2, 192.0.0.0/2', /all of IPv4/],
    ['::/1,8000::/1', /all of IPv6/],
    ['::ffff:0.0.0.0/97,::ffff:128.0.0.0/97', /all of IPv4/],
    ['loopback,0.0.0.0/1,128.0.0.0/1', /all of IPv4/],
    ['100.0.0.0/7', /public IPv4 addresses, more than a \/8's worth/],
  ])('refuses %s in one line naming the variable', (raw, why) => {
    expect(() => loadConfig({ SVC_TRUST_PROXY: raw })).toThrow(why);
    expect(() => loadConfig({ SVC_TRUST_PROXY: raw })).toThrow(
      /^SVC_TRUST_PROXY must name the proxies, not the Internet: together they cover .*, so those clients could pick their own rate-limit key, got ".*"$/,
    );
  });

  it('keeps a list of proxies as it was', () => {
    expect(loadConfig({ SVC_TRUST_PROXY: '10.0.0.5, 2001:db8::/48, uniquelocal' }).trustProxy).toBe(
      '10.0.0.5,2001:db8::/48,uniquelocal',
    );
  });
});
