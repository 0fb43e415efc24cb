/**
 * URL rules shared by the places that take a URL from the operator. Hostnames are compared as the
 * WHATWG URL parser spells them (lower case, IPv4 in dotted decimal, IPv6 in brackets and
 * compressed), so `http://127.1`, `http://LOCALHOST` and `http://[0:0::1]` are recognised too.
 */
import { isIPv4 } from 'node:net';

/**
 * Whether a parsed URL's hostname is a loopback host: `localhost`, 127.0.0.0/8 or ::1.
 *
 * @example isLoopbackHost(new URL('http://127.0.0.1:8789').hostname) // true
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return isIPv4(hostname) && hostname.startsWith('127.');
}

/**
 * Whether `value` is an absolute `https://` URL, or an `http://` one on a loopback host (local
 * trials and tests; nothing on the network can sit between the two ends there).
 *
 * @example isSecureOrLoopbackUrl('https://id.example') // true
 * @example isSecureOrLoopbackUrl('http://localhost:8789') // true
 * @example isSecureOrLoopbackUrl('http://id.example') // false
 */
export function isSecureOrLoopbackUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return url.hostname !== '';
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/**
 * An origin as browsers send it: scheme://host[:port], nothing after.
 *
 * @example isOrigin('https://shop.example') // true; isOrigin('https://shop.example/') // false
 */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}
