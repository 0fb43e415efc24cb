import { describe, expect, it } from 'vitest';
import { addressKey, truncateAddress } from './client-address.ts';

describe('addressKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    ['203.0.113.9:4711', '203.0.113.9'],
    ['[2001:db8:1:2::9]:4711', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['[::ffff:192.0.2.7]:80', '192.0.2.7'],
    ['::ffff:c633:6409', '198.51.100.9'],
    ['::FFFF:C633:6409', '198.51.100.9'],
    ['0:0:0:0:0:ffff:c633:6409', '198.51.100.9'],
    ['0000:0000:0000:0000:0000:FFFF:198.51.100.9', '198.51.100.9'],
    ['[::ffff:c633:6409]:4711', '198.51.100.9'],
    ['::198.51.100.9', '0:0:0:0::/64'],
    ['2001:DB8:1:2::1', '2001:db8:1:2::/64'],
  ])('keys %s as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it('gives every address of one /64 the same key and a neighbouring /64 another', () => {
    const keys = new Set(Array.from({ length: 200 }, (_, i) => addressKey(`2001:db8:0:7:${i.toString(16)}::${i + 1}`)));
    expect(keys).toEqual(new Set(['2001:db8:0:7::/64']));
    expect(addressKey('2001:db8:0:8::1')).not.toBe(addressKey('2001:db8:0:7::1'));
  });

  it('leaves a string that is not an address as it is', () => {
    expect(addressKey('unix-socket')).toBe('unix-socket');
    expect(addressKey('[unix-socket]:80')).toBe('[unix-socket]:80');
  });
});

describe('truncateAddress', () => {
  it.each([
    ['192.0.2.77', '192.0.2.0/24'],
    ['::ffff:198.51.100.9', '198.51.100.0/24'],
    ['2001:db8:1:2::1', '2001:db8:1::/48'],
    ['not an address', '[unknown]'],
    ['203.0.113.9:4711', '203.0.113.0/24'],
    ['[2001:db8:1:2::1]:4711', '2001:db8:1::/48'],
    ['::FFFF:C633:6409', '198.51.100.0/24'],
  ])('cuts %s to %s', (address, cut) => {
    expect(truncateAddress(address)).toBe(cut);
  });

  it('passes undefined through', () => {
    expect(truncateAddress(undefined)).toBeUndefined();
  });
});
