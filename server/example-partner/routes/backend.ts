/**
 * The partner's own backend routes (not part of the service): the success page posts the grant
 * here, and the loader's server-verify mode asks here whether the grant checked out.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GRANT_CODE_PREFIX, SVC_HEADERS } from '../../sdk/index.ts';
import type { PartnerContext } from '../context.ts';

/** What the success page receives: the verified facts, never the pass token. */
export interface PartnerExchangeAnswer {
  verified: true;
  /** `exchange`: this call spent the grant; `remembered`: an earlier call (e.g. /api/confirm) had */
  source: 'exchange' | 'remembered';
  scopes: string[];
  age_over_18?: boolean;
  attributes: Record<string, unknown>;
  expires_in: number;
}

/** @example registerBackendRoutes(app, context) */
export function registerBackendRoutes(app: FastifyInstance, context: PartnerContext): void {
  const exchange = (grantCode: string) => context.exchanges.exchangeOnce(grantCode, (code) => context.client.exchange(code));

  app.post('/api/exchange', async (request, reply) => {
    const grantCode = (request.body as { grant_code?: unknown } | undefined)?.grant_code;
    if (typeof grantCode !== 'string' || grantCode.length === 0 || grantCode.length > 256) {
      return reply.code(400).send({ error: 'INVALID_REQUEST', message: 'grant_code is required.' });
    }
    try {
      const { response, remembered } = await exchange(grantCode);
      const answer: PartnerExchangeAnswer = {
        verified: true,
        source: remembered ? 'remembered' : 'exchange',
        scopes: response.scopes,
        ...(response.age_over_18 === undefined ? {} : { age_over_18: response.age_over_18 }),
        attributes: { ...response.attributes },
        expires_in: response.expires_in,
      };
      return reply.header('Cache-Control', 'no-store').send(answer);
    } catch (error) {
      return sendServiceError(reply, error);
    }
  });

  // Server-verify (DESIGN §7): the loader calls this at most once a second with the grant in a
  // header until it answers verified: true. `?never=1` never confirms, to exercise the timeout.
  app.get<{ Querystring: { never?: string } }>('/api/confirm', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const grantCode = request.headers[SVC_HEADERS.grantCode];
    if (request.query.never !== undefined) return { verified: false };
    if (typeof grantCode !== 'string' || !grantCode.startsWith(GRANT_CODE_PREFIX)) return { verified: false };
    try {
      await exchange(grantCode);
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
    return reply.code(status).send({ error: errorCode(error), message: (error as Error).message });
  }
  reply.log.error({ err: error }, 'exchange failed');
  return reply.code(502).send({ error: 'INTERNAL_ERROR', message: 'The verification service could not be reached.' });
}
