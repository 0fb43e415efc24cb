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
 *   buy a budget of its own (docs/operations.md, "Client addresses"). For the same reason every
 *   spelling of an IPv4-mapped address (`::ffff:c633:6409`, upper case, zeros written out) counts
 *   as the IPv4 address it carries.
 */
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The eight 16-bit groups of an IPv6 address in any spelling (upper or lower case, `::` or the
 * zeros written out, a dotted IPv4 tail, a zone), or null. The WHATWG URL host parser reads it and
 * writes it back in its one spelling (lower-case hex, the longest run of zeros as `::`, no dotted
 * tail), which is then split.
 *
 * @example ipv6Groups('::FFFF:198.51.100.9') // [0, 0, 0, 0, 0, 0xffff, 0xc633, 0x6409]
 */
export function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  const host = new URL(`http://[${address.split('%')[0]}]/`).hostname.slice(1, -1);
  const [head = '', tail] = host.split('::');
  const read = (part: string): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = read(head);
  if (tail === undefined) return left;
  const right = read(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:0:0/96`, RFC 4291 §2.5.5.2) carries, or null. */
function mappedIPv4(groups: readonly number[]): string | null {
  if (groups.slice(0, 5).some((group) => group !== 0) || groups[5] !== 0xffff) return null;
  const [high, low] = [groups[6]!, groups[7]!];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The address alone, one spelling per client: `192.0.2.1:4711` → `192.0.2.1`, `[2001:db8::1]:4711`
 * and `[2001:db8::1]` → `2001:db8::1`, and an IPv4-mapped address however written
 * (`::ffff:192.0.2.1`, how a dual-stack socket reports an IPv4 client, or `::ffff:c000:201`,
 * `::FFFF:C000:0201`, `0:0:0:0:0:ffff:c000:201`) → `192.0.2.1`; anything else unchanged.
 */
function plainAddress(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d{1,5}$/.exec(address);
  const bare =
    bracketed && isIPv6(bracketed[1]!) ? bracketed[1]! : withPort && isIPv4(withPort[1]!) ? withPort[1]! : address;
  const groups = ipv6Groups(bare);
  return (groups && mappedIPv4(groups)) ?? bare;
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
