/**
 * Private attestations (docs/adult-blind.md#private-attestations):
 *
 * - `GET {app_url}/api/billing/private-attestation-keys`: the RSA public keys, one per scope mask
 *   in each key set, with their `token_key_id` and the set's `epoch`; public, cached an hour,
 *   like the Ed25519 key set.
 * - `POST /api/w/private-attestation/:requestId?pt=`: the widget's blinded TokenRequest for its
 *   completed request, `{"token_request": "<base64url>"}` → `{"token_response": "<base64url>"}`,
 *   once per request. CORS open, no cookies, like the other /api/w routes.
 */
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import { createPrivateAttestationKeys, issuePrivateAttestation } from '../domain/index.ts';
import { INVALID_REQUEST_BODY, readJsonObject } from '../http/body.ts';
import { PAGE_POST_CORS } from '../http/cors.ts';
import { RATE_LIMITS } from '../limits/rate-limits.ts';
import { errorResponses } from './docs.ts';
import { PUBLIC_READ_CORS } from '../http/cors.ts';

export const PRIVATE_ATTESTATION_KEYS_PATH = '/api/billing/private-attestation-keys';
export const PRIVATE_ATTESTATION_PATH = '/api/w/private-attestation/:requestId';

const keySetSchema = {
  type: 'object',
  required: ['issuer_name', 'keys'],
  properties: {
    issuer_name: { type: 'string', description: 'the TokenChallenge issuer_name: the host of {app_url}' },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        // Serialisation keeps only these members: no private part can leave.
        required: ['token_type', 'token_key_id', 'public_key', 'scope_mask', 'epoch', 'state'],
        properties: {
          token_type: { type: 'integer', description: '2: RFC 9578 Blind RSA (2048-bit)' },
          token_key_id: { type: 'string', description: 'base64url SHA-256 of public_key' },
          public_key: { type: 'string', description: 'base64url DER SubjectPublicKeyInfo (RSASSA-PSS OID)' },
          scope_mask: {
            type: 'integer',
            description: 'the metadata this key binds: bit 0 isAdult, 1 isFrench, 2 isEU',
          },
          epoch: { type: 'string', description: 'the metadata this key binds: the UTC date its set was made' },
          state: { type: 'string', enum: ['current', 'next', 'retired'] },
        },
      },
    },
  },
} as const;

/** Registers both routes. */
export function registerPrivateAttestationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const keys = createPrivateAttestationKeys(deps);

  app.get(
    PRIVATE_ATTESTATION_KEYS_PATH,
    {
      schema: {
        summary:
          'The private-attestation public keys (docs/adult-blind.md#private-attestations): current set first, then next, then retired',
        tags: ['billing'],
        response: { 200: keySetSchema },
      },
      // public keys, readable from any origin
      config: { noStore: false, cors: PUBLIC_READ_CORS },
    },
    async (_request, reply) =>
      reply.header('Cache-Control', `public, max-age=${LIMITS.jwksMaxAgeSeconds}`).send(await keys.keySet()),
  );

  app.register(async (widget) => {
    widget.post<{ Params: { requestId: string }; Querystring: Record<string, unknown> }>(
      PRIVATE_ATTESTATION_PATH,
      {
        schema: {
          tags: ['widget'],
          summary: 'Sign the blinded token request of a completed private ADULT_BLIND request, once',
          params: { type: 'object', properties: { requestId: { type: 'string' } } },
          querystring: { type: 'object', required: ['pt'], properties: { pt: { type: 'string' } } },
          body: {
            type: 'object',
            required: ['token_request'],
            properties: { token_request: { type: 'string', description: 'base64url RFC 9578 TokenRequest, type 2' } },
          },
          response: {
            200: {
              type: 'object',
              required: ['token_response'],
              properties: { token_response: { type: 'string', description: 'base64url blind signature (256 bytes)' } },
            },
            ...errorResponses(['INVALID_REQUEST', 'NOT_FOUND', 'ATTESTATION_NOT_ISSUABLE', 'SERVICE_UNAVAILABLE']),
          },
        },
        // The same per-address budget as creating a request: one issuance per verification.
        config: { rateLimit: RATE_LIMITS.widgetCreate, cors: PAGE_POST_CORS },
      },
      async (request) => {
        const body = readJsonObject(request, INVALID_REQUEST_BODY);
        return issuePrivateAttestation(deps, keys, {
          requestId: request.params.requestId,
          pollToken: request.query.pt,
          tokenRequest: body.token_request,
        });
      },
    );
  });
}
