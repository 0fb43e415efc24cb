/**
 * The sandbox's status list (design.md §15): `GET /sandbox/status/1` answers the Status List Token
 * the sandbox credentials point to (sandbox-status-list.ts: index 1 revoked, index 2 suspended, every
 * other valid), `application/statuslist+jwt`, its `sub` the URL it was fetched at. Registered by
 * app.ts in sandbox mode only.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { STATUS_MEDIA_TYPE } from '../wallet/index.ts';
import { loadSandboxIssuer } from './wallet/sandbox-issuer.ts';
import { createStatusListToken, SANDBOX_STATUS_LIST_PATH } from './wallet/sandbox-status-list.ts';

/** Registers the status list route; app.ts calls it in sandbox mode only. */
export function registerSandboxStatusRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'clock'>): void {
  const issuer = loadSandboxIssuer();
  app.get(SANDBOX_STATUS_LIST_PATH, async (request, reply) => {
    // `sub` must be the URI the verifier fetched (draft-ietf-oauth-status-list §5.1): this host's.
    const uri = `${request.protocol}://${request.host}${SANDBOX_STATUS_LIST_PATH}`;
    const token = await createStatusListToken({ issuer, uri, now: deps.clock.now() });
    return reply.type(STATUS_MEDIA_TYPE).send(token);
  });
}
