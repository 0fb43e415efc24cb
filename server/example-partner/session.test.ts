import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createSessionCookies, readCookie, SESSION_COOKIE } from './session.ts';

const SECRET = 'a cookie secret of at least 32 bytes!';

/** The two things idOf touches: the request's Cookie header and protocol, the reply's Set-Cookie. */
function exchange(cookie?: string, protocol: 'http' | 'https' = 'http') {
  const request = { headers: cookie === undefined ? {} : { cookie }, protocol } as unknown as FastifyRequest;
  const setCookies: string[] = [];
  const reply = {
    header(name: string, value: string) {
      if (name === 'Set-Cookie') setCookies.push(value);
      return reply;
    },
  } as unknown as FastifyReply;
  return { request, reply, setCookies };
}

const valueOf = (setCookie: string) => readCookie(setCookie.split(';')[0], SESSION_COOKIE)!;

describe('session cookies', () => {
  const sessions = createSessionCookies({ secret: SECRET });

  it('issues a signed, HttpOnly, SameSite=Lax cookie to a visitor without one, once per request', () => {
    const first = exchange();
    const id = sessions.idOf(first.request, first.reply);
    expect(sessions.idOf(first.request, first.reply)).toBe(id);
    expect(first.setCookies).toHaveLength(1);
    expect(first.setCookies[0]).toMatch(
      new RegExp(`^${SESSION_COOKIE}=${id}\\.[\\w-]{43}; Path=/; HttpOnly; SameSite=Lax$`),
    );
  });

  it('recognises its own cookie and sends nothing back', () => {
    const first = exchange();
    const id = sessions.idOf(first.request, first.reply);
    const again = exchange(`other=1; ${SESSION_COOKIE}=${valueOf(first.setCookies[0]!)}`);
    expect(sessions.idOf(again.request, again.reply)).toBe(id);
    expect(again.setCookies).toEqual([]);
  });

  it('replaces a cookie it did not sign: a chosen id, a tampered signature, another secret', () => {
    const first = exchange();
    const id = sessions.idOf(first.request, first.reply);
    const signature = valueOf(first.setCookies[0]!).split('.')[1]!;
    const other = createSessionCookies({ secret: 'another secret, also 32 bytes long' });
    const foreign = exchange();
    other.idOf(foreign.request, foreign.reply);
    const forged = [
      `${'A'.repeat(22)}.${signature}`,
      `${id}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      valueOf(foreign.setCookies[0]!),
      id,
      '',
    ];
    for (const value of forged) {
      const attempt = exchange(`${SESSION_COOKIE}=${value}`);
      expect(sessions.idOf(attempt.request, attempt.reply), value).not.toBe(id);
      expect(attempt.setCookies, value).toHaveLength(1);
    }
  });

  it('marks the cookie Secure when the page came over https', () => {
    const secure = exchange(undefined, 'https');
    sessions.idOf(secure.request, secure.reply);
    expect(secure.setCookies[0]).toMatch(/; Secure$/);
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => createSessionCookies({ secret: 'short' })).toThrow(/at least 32 bytes/);
  });
});
