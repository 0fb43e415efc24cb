/**
 * How much of the address space an SVC_TRUST_PROXY list trusts (docs/operations.md, "Client
 * addresses"). Every client inside a trusted range may write its own X-Forwarded-For, so picks its
 * own rate-limit key: the list must name proxies, not the Internet, however it is split.
 *
 * The rule: the union of the entries (keywords expanded as @fastify/proxy-addr expands them,
 * overlaps counted once, an IPv6 range over `::ffff:0:0/96` counted as the IPv4 it maps) may not
 * cover all of IPv4 or all of IPv6, and outside the private ranges the keywords name (loopback,
 * link-local, unique-local) it may cover at most PUBLIC_IPV4_CEILING IPv4 addresses (a /8's worth)
 * and PUBLIC_IPV6_CEILING IPv6 addresses (a /24's worth).
 */
import { isIPv4 } from 'node:net';
import { ipv6Groups } from './client-address.ts';

/** An inclusive range of addresses as integers. */
interface Interval {
  start: bigint;
  end: bigint;
}

type Family = 4 | 6;

const BITS: Record<Family, bigint> = { 4: 32n, 6: 128n };

/** What each keyword stands for, as @fastify/proxy-addr expands it. */
export const PROXY_KEYWORD_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** At most this many public IPv4 addresses trusted: 2^24, a /8's worth. */
export const PUBLIC_IPV4_CEILING = 1n << 24n;
/** At most this many public IPv6 addresses trusted: 2^104, a /24's worth (a few providers' /32s). */
export const PUBLIC_IPV6_CEILING = 1n << 104n;

/** `::ffff:0:0/96`: the IPv6 block a dual-stack socket maps IPv4 clients into. */
const MAPPED_IPV4: Interval = { start: 0xffffn << 32n, end: (0xffffn << 32n) | 0xffffffffn };

function addressValue(address: string): { family: Family; value: bigint } | null {
  if (isIPv4(address)) {
    const value = address.split('.').reduce((sum, octet) => (sum << 8n) | BigInt(Number(octet)), 0n);
    return { family: 4, value };
  }
  const groups = ipv6Groups(address);
  if (!groups) return null;
  return { family: 6, value: groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n) };
}

/** `10.0.0.5/8` → 10.0.0.0–10.255.255.255 (host bits dropped, as the proxy check does); null when unreadable. */
function rangeOf(entry: string): { family: Family; interval: Interval } | null {
  const [address = '', bits] = entry.split('/');
  const parsed = addressValue(address);
  if (!parsed) return null;
  const width = BITS[parsed.family];
  const prefix = bits === undefined ? width : BigInt(Number(bits));
  if (prefix < 0n || prefix > width) return null;
  const hostMask = (1n << (width - prefix)) - 1n;
  const start = parsed.value & ~hostMask;
  return { family: parsed.family, interval: { start, end: start | hostMask } };
}

/** Sorted, overlaps and neighbours merged. */
function merge(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const merged: Interval[] = [];
  for (const next of sorted) {
    const last = merged.at(-1);
    if (last && next.start <= last.end + 1n) last.end = next.end > last.end ? next.end : last.end;
    else merged.push({ ...next });
  }
  return merged;
}

function size(intervals: readonly Interval[]): bigint {
  return intervals.reduce((sum, { start, end }) => sum + (end - start + 1n), 0n);
}

/** The addresses in both merged lists. */
function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const both: Interval[] = [];
  for (const x of a)
    for (const y of b) {
      const start = x.start > y.start ? x.start : y.start;
      const end = x.end < y.end ? x.end : y.end;
      if (start <= end) both.push({ start, end });
    }
  return merge(both);
}

function expand(entries: readonly string[]): string[] {
  return entries.flatMap((entry) => PROXY_KEYWORD_RANGES[entry] ?? [entry]);
}

/** Each family's merged ranges, an IPv6 range's share of `::ffff:0:0/96` added to IPv4. */
function unionOf(entries: readonly string[]): Record<Family, Interval[]> {
  const ranges: Record<Family, Interval[]> = { 4: [], 6: [] };
  for (const entry of expand(entries)) {
    const range = rangeOf(entry);
    if (!range) continue;
    ranges[range.family].push(range.interval);
    if (range.family === 6)
      for (const mapped of intersect([range.interval], [MAPPED_IPV4]))
        ranges[4].push({ start: mapped.start - MAPPED_IPV4.start, end: mapped.end - MAPPED_IPV4.start });
  }
  return { 4: merge(ranges[4]), 6: merge(ranges[6]) };
}

const PRIVATE = unionOf(Object.keys(PROXY_KEYWORD_RANGES));

/** How many addresses of each family the entries trust, in all and outside the private ranges. */
export function measureTrustedRanges(entries: readonly string[]): Record<Family, { all: bigint; public: bigint }> {
  const union = unionOf(entries);
  const measure = (family: Family) => {
    const all = size(union[family]);
    return { all, public: all - size(intersect(union[family], PRIVATE[family])) };
  };
  return { 4: measure(4), 6: measure(6) };
}

/**
 * Why the entries trust too much of the address space, as the end of one config line; null when
 * they do not. Entries are already checked one by one (addresses, CIDRs, keywords).
 *
 * @example tooWideProxyRanges(['0.0.0.0/1', '128.0.0.0/1']) // 'together they cover all of IPv4'
 * @example tooWideProxyRanges(['10.0.0.5', 'uniquelocal'])  // null
 */
export function tooWideProxyRanges(entries: readonly string[]): string | null {
  const measured = measureTrustedRanges(entries);
  for (const family of [6, 4] as const)
    if (measured[family].all === 1n << BITS[family]) return `together they cover all of IPv${family}`;
  if (measured[4].public > PUBLIC_IPV4_CEILING)
    return `together they cover ${measured[4].public} public IPv4 addresses, more than a /8's worth (${PUBLIC_IPV4_CEILING})`;
  if (measured[6].public > PUBLIC_IPV6_CEILING)
    return `together they cover more public IPv6 addresses than a /24's worth (2^104)`;
  return null;
}
