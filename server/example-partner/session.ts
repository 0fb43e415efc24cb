/**
 * The visitor's session on the example partner: a random id in a cookie signed with HMAC-SHA256.
 *
 * Why a partner needs one: a grant code or an attestation is a bearer value. Whoever holds it
 * (a copied URL, a shared screenshot, a log line) could present it from another browser. The
 * verified result must therefore belong to the browser that presented it first, and that
 * browser is known only through a cookie the partner issued and can recognise.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'shop_session';
/** HMAC keys shorter than this are refused: the cookie secret must not be guessable. */
export const MIN_COOKIE_SECRET_LENGTH = 32;

export interface SessionCookies {
  /**
   * The visitor's session id from the signed cookie; when the cookie is missing or its signature
   * does not check out, a new id, sent back as `Set-Cookie`. One id per request, however often asked.
   */
  idOf(request: FastifyRequest, reply: FastifyReply): string;
}

/**
 * @example
 * const sessions = createSessionCookies({ secret: process.env.PARTNER_COOKIE_SECRET ?? randomBytes(32) });
 * app.post('/api/exchange', (request, reply) => { const sid = sessions.idOf(request, reply); … });
 */
export function createSessionCookies(options: { secret: string | Buffer }): SessionCookies {
  const secret = typeof options.secret === 'string' ? Buffer.from(options.secret, 'utf8') : options.secret;
  if (secret.length < MIN_COOKIE_SECRET_LENGTH)
    throw new Error(`the cookie secret must be at least ${MIN_COOKIE_SECRET_LENGTH} bytes`);
  const ids = new WeakMap<FastifyRequest, string>();
  const sign = (id: string) => createHmac('sha256', secret).update(id).digest();

  // Signed, so a visitor cannot pick their session id (session fixation) and the server needs no
  // table of the ids it issued.
  function verify(value: string | undefined): string | null {
    const match = value === undefined ? null : /^([\w-]{22})\.([\w-]{43})$/.exec(value);
    if (!match) return null;
    const expected = sign(match[1]!);
    const given = Buffer.from(match[2]!, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? match[1]! : null;
  }

  return {
    idOf(request, reply) {
      const known = ids.get(request);
      if (known) return known;
      let id = verify(readCookie(request.headers.cookie, SESSION_COOKIE));
      if (id === null) {
        id = randomBytes(16).toString('base64url');
        // HttpOnly: page scripts never need it. SameSite=Lax: another site cannot post a stolen
        // grant into this session. Secure whenever the page itself came over https.
        const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(request.protocol === 'https' ? ['Secure'] : [])];
        reply.header(
          'Set-Cookie',
          [`${SESSION_COOKIE}=${id}.${sign(id).toString('base64url')}`, ...attributes].join('; '),
        );
      }
      ids.set(request, id);
      return id;
    },
  };
}

/** @example readCookie('a=1; shop_session=x.y', 'shop_session') // 'x.y' */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
