/**
 * Client addresses as rate limits and logs use them (docs/operations.md#running-the-service, "Client addresses").
 *
 * - Rate limits key an IPv4 client by its address and an IPv6 client by its /64: one subscriber
 *   line or host gets a whole /64, so keying by full address would let one client walk around
 *   every per-address limit.
 * - Logs keep only the /24 (IPv4) or /48 (IPv6) next to a verification request id (design.md §8), so
 *   that log lines cannot link a browser to a phone.
 * - A forwarded `203.0.113.9:4711` or `[2001:db8::1]:4711` (some proxies add the client's port to
 *   X-Forwarded-For) counts as its address: the port is the client's to choose, so it must not
 *   buy a budget of its own (docs/operations.md, "Client addresses").
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 folded in), or null. */
export function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail ?? undefined);
  const groups =
    tail === null ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

/**
 * The address alone: `192.0.2.1:4711` → `192.0.2.1`, `[2001:db8::1]:4711` and `[2001:db8::1]` →
 * `2001:db8::1`, and `::ffff:192.0.2.1` (how a dual-stack socket reports an IPv4 client) →
 * `192.0.2.1`; anything else unchanged.
 */
function plainAddress(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d{1,5}$/.exec(address);
  const bare =
    bracketed && isIPv6(bracketed[1]!) ? bracketed[1]! : withPort && isIPv4(withPort[1]!) ? withPort[1]! : address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  return mapped ? mapped[1]! : bare;
}

function ipv6Prefix(groups: number[], bits: 48 | 64): string {
  return `${groups
    .slice(0, bits / 16)
    .map((group) => group.toString(16))
    .join(':')}::/${bits}`;
}

/**
 * The key a per-address rate limit counts under: the IPv4 address, or the IPv6 /64.
 *
 * @example addressKey('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 * @example addressKey('::ffff:192.0.2.7')     // '192.0.2.7'
 * @example addressKey('192.0.2.7:4711')       // '192.0.2.7'
 */
export function addressKey(address: string): string {
  const plain = plainAddress(address);
  if (isIPv4(plain)) return plain;
  const groups = ipv6Groups(plain);
  return groups ? ipv6Prefix(groups, 64) : plain;
}

/**
 * A client address cut for logs: IPv4 to its /24, IPv6 to its /48.
 *
 * @example truncateAddress('192.0.2.77')         // '192.0.2.0/24'
 * @example truncateAddress('2001:db8:1:2::1')     // '2001:db8:1::/48'
 */
export function truncateAddress(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const plain = plainAddress(address);
  if (isIPv4(plain)) return `${plain.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = ipv6Groups(plain);
  return groups ? ipv6Prefix(groups, 48) : '[unknown]';
}
