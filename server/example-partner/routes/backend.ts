/**
 * The partner's own backend routes (not part of the service): the success page posts the grant
 * here, and the loader's server-verify mode asks here whether the grant checked out. Either way
 * the result is bound to the visitor's session (session.ts): the session that presents a grant
 * first owns it, and the same grant from any other session is refused with 409
 * GRANT_ALREADY_USED, never answered verified: true.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GRANT_CODE_PREFIX, SVC_HEADERS } from '../../sdk/index.ts';
import type { PartnerContext } from '../context.ts';
import { readPageLocale } from '../copy.ts';
import { describeExchange, type Fact } from '../facts.ts';

/** What the success page receives: the verified facts, never the pass token. */
export interface PartnerExchangeAnswer {
  verified: true;
  /** `exchange`: this call spent the grant; `remembered`: an earlier call of this session (e.g. /api/confirm) had */
  source: 'exchange' | 'remembered';
  scopes: string[];
  age_over_18?: boolean;
  attributes: Record<string, unknown>;
  expires_in: number;
  /** the same result in words, in the page's language (`locale` in the request; facts.ts) */
  facts: Fact[];
}

/** What a grant already owned by another session gets: a refusal, whatever the grant proved. */
export const GRANT_ALREADY_USED = {
  verified: false,
  error: 'GRANT_ALREADY_USED',
  message: 'This verification result was already used in another browser session.',
} as const;

/** @example registerBackendRoutes(app, context) */
export function registerBackendRoutes(app: FastifyInstance, context: PartnerContext): void {
  // A grant is a bearer value that travels in a URL: whoever copies it could present it from
  // their own browser. Binding it to the first session that presents it means a copy proves
  // nothing to the copier, while the visitor's own second request (server-verify, then the
  // success page) still gets the answer.
  const exchange = (grantCode: string, request: FastifyRequest, reply: FastifyReply) =>
    context.exchanges.exchangeOnce(grantCode, context.sessions.idOf(request, reply), (code) =>
      exchangeAndIntrospect(code),
    );

  // The page also shows how the visitor was verified (face_check or eudi_wallet), which only
  // introspection tells (docs/partner-api.md: the exchange's answer has no verification_method).
  async function exchangeAndIntrospect(code: string) {
    const response = await context.client.exchange(code);
    const introspected = await context.client.introspect(response.pass_token);
    if (!introspected.active) return response;
    return {
      ...response,
      attributes: { ...response.attributes, verification_method: introspected.attributes.verification_method },
    };
  }

  app.post('/api/exchange', async (request, reply) => {
    const body = request.body as { grant_code?: unknown; locale?: unknown } | undefined;
    const grantCode = body?.grant_code;
    if (typeof grantCode !== 'string' || grantCode.length === 0 || grantCode.length > 256) {
      return reply.code(400).send({ verified: false, error: 'INVALID_REQUEST', message: 'grant_code is required.' });
    }
    try {
      const outcome = await exchange(grantCode, request, reply);
      if (outcome.status === 'used') return reply.code(409).send(GRANT_ALREADY_USED);
      const { response } = outcome;
      const answer: PartnerExchangeAnswer = {
        verified: true,
        source: outcome.status === 'remembered' ? 'remembered' : 'exchange',
        scopes: response.scopes,
        ...(response.age_over_18 === undefined ? {} : { age_over_18: response.age_over_18 }),
        attributes: { ...response.attributes },
        expires_in: response.expires_in,
        facts: describeExchange(response, readPageLocale(body?.locale)),
      };
      return reply.header('Cache-Control', 'no-store').send(answer);
    } catch (error) {
      return sendServiceError(reply, error);
    }
  });

  // Server-verify (design.md §7): the loader calls this at most once a second with the grant in a
  // header until it answers verified: true. `?never=1` never confirms, to exercise the timeout.
  app.get<{ Querystring: { never?: string } }>('/api/confirm', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const grantCode = request.headers[SVC_HEADERS.grantCode];
    if (request.query.never !== undefined) return { verified: false };
    if (typeof grantCode !== 'string' || !grantCode.startsWith(GRANT_CODE_PREFIX)) return { verified: false };
    try {
      if ((await exchange(grantCode, request, reply)).status === 'used')
        return reply.code(409).send(GRANT_ALREADY_USED);
      return { verified: true };
    } catch (error) {
      request.log.info({ code: errorCode(error) }, 'grant did not check out');
      return { verified: false };
    }
  });
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'INTERNAL_ERROR';
}

/** SDK errors keep their status and catalogue code; anything else means the service is unreachable. */
function sendServiceError(reply: FastifyReply, error: unknown): FastifyReply {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 600) {
    return reply.code(status).send({ verified: false, error: errorCode(error), message: (error as Error).message });
  }
  reply.log.error({ err: error }, 'exchange failed');
  return reply
    .code(502)
    .send({ verified: false, error: 'INTERNAL_ERROR', message: 'The verification service could not be reached.' });
}
