/**
 * The ADULT_BLIND rail's two service endpoints (docs/adult-blind.md: POST /api/billing/session in
 * #getting-a-session-token-every-page-load, GET /api/billing/attestation-keys in #verifying-offline;
 * design.md §5, §6, §8).
 *
 * POST /api/billing/session checks, in this order (the first failing check answers):
 *  1. body size → 413 PAYLOAD_TOO_LARGE (Fastify, before anything else)
 *  2. the HMAC checks of design.md §6 with the two rate limits of docs/adult-blind.md's table (partner-auth.ts):
 *     30 per client IP before authentication, 100 per partner ID after → 429
 *  3. the partner is not on the ADULT_BLIND rail → 403 FORBIDDEN_RAIL
 *  4. the partner has no blind_app_id → 400 MISSING_BLIND_APP_ID
 *  5. Content-Type is not application/json → 415 UNSUPPORTED_MEDIA_TYPE
 *  6. the body is empty, not JSON, or JSON but not an object → 400 INVALID_JSON
 *  7. origin absent, null or "" → 400 MISSING_ORIGIN
 *  8. origin not a string, not an origin, or not the partner's registered domain → 403 ORIGIN_NOT_ALLOWED
 *  9. scopes not a non-empty array of distinct isAdult/isFrench/isEU/isUnique, or outside the
 *     partner's allowed_scopes → 400 INVALID_SCOPES (absent: [isAdult])
 * Partner-level refusals come before body ones: a misconfigured organization learns that first,
 * whatever it sent.
 *
 * This is the only route that reads the partner → blind_app_id mapping (design.md §8), through its
 * use case (domain/billing-session.ts): the session token it issues names the app and the origin
 * hash, never the partner.
 */
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../src/protocol/wire.ts';
import { TOO_MANY_REQUESTS } from '../../src/protocol/errors.ts';
import { BLIND_SCOPES } from '../../src/protocol/scopes.ts';
import { partnerAuthHook } from '../auth/partner-auth.ts';
import type { AppDeps } from '../deps.ts';
import { billingAppOf, createBillingSession } from '../domain/index.ts';
import { readJsonObject, requireJsonContentType, type BodyRules } from '../http/body.ts';
import { PUBLIC_READ_CORS } from '../http/cors.ts';
import { RATE_LIMITS } from '../limits/rate-limits.ts';
import { errorResponses, SIGNED_ROUTE_SECURITY } from './docs.ts';

export const BILLING_SESSION_PATH = '/api/billing/session';
export const ATTESTATION_KEYS_PATH = '/api/billing/attestation-keys';

/**
 * The billing session's INVALID_JSON (docs/adult-blind.md#getting-a-session-token-every-page-load) for a
 * body that is empty, not JSON, or JSON but not an object.
 */
const BILLING_BODY: BodyRules = { code: 'INVALID_JSON', notObjectMessage: 'Body must be a JSON object.' };

/** The body as the document shows it; the handler reads it itself, in the order above (http/route-policy.ts: Ajv off). */
const sessionBodySchema = {
  type: 'object',
  required: ['origin'],
  properties: {
    origin: {
      type: 'string',
      description:
        'the origin of the page the widget runs on (`https://shop.example`): the partner’s registered domain',
    },
    scopes: {
      type: 'array',
      items: { type: 'string', enum: [...BLIND_SCOPES] },
      description: 'non-empty, distinct, within the partner’s allowed scopes; default ["isAdult"]',
    },
  },
} as const;

const jwksSchema = {
  type: 'object',
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        // Serialisation keeps only these members: a private `d` could never leave.
        properties: {
          kty: { type: 'string' },
          crv: { type: 'string' },
          kid: { type: 'string' },
          x: { type: 'string' },
          use: { type: 'string' },
          alg: { type: 'string' },
        },
        required: ['kty', 'crv', 'kid', 'x', 'use'],
      },
    },
  },
  required: ['keys'],
} as const;

/** @example registerBillingRoutes(app, deps) // called once by createApp */
export function registerBillingRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post(
    BILLING_SESSION_PATH,
    {
      // per client address before any header is read; per partner once authenticated
      config: { rateLimit: RATE_LIMITS.billingPreAuth, auth: 'partner-signature' },
      preValidation: partnerAuthHook(deps, { requireContentType: true, postAuthLimit: RATE_LIMITS.billingPostAuth }),
      schema: {
        summary: 'Issue a session token for the widget (ADULT_BLIND rail, HMAC-signed)',
        tags: ['billing'],
        security: SIGNED_ROUTE_SECURITY,
        body: sessionBodySchema,
        response: {
          201: {
            type: 'object',
            description: 'the session token the page passes to the loader (`data-session-token`)',
            properties: {
              token: { type: 'string', description: 'valid 300 s; starts at most 20 verification requests' },
              expires_in: { type: 'integer', description: 'seconds (300)' },
            },
            required: ['token', 'expires_in'],
          },
          // The checks above; the signing and edge errors every signed POST shares are added by docs.ts.
          ...errorResponses([
            'FORBIDDEN_RAIL',
            'MISSING_BLIND_APP_ID',
            'INVALID_JSON',
            'MISSING_ORIGIN',
            'ORIGIN_NOT_ALLOWED',
            'INVALID_SCOPES',
            TOO_MANY_REQUESTS,
          ]),
        },
      },
    },
    async (request, reply) => {
      const billingApp = billingAppOf(request.partner!);
      requireJsonContentType(request);
      const { origin, scopes } = readJsonObject(request, BILLING_BODY);
      const created = await createBillingSession(deps, billingApp, { origin, scopes });
      return reply.code(201).send(created);
    },
  );

  app.get(
    ATTESTATION_KEYS_PATH,
    {
      schema: {
        summary: 'The attestation public key set (JWKS): signing key first, then next, then retired-but-live',
        tags: ['billing'],
        response: { 200: jwksSchema },
      },
      // public keys, cached by verifiers for jwksMaxAgeSeconds, readable from any origin
      config: { noStore: false, cors: PUBLIC_READ_CORS },
    },
    async (_request, reply) => {
      const jwks = await deps.blind.jwks();
      return reply.header('Cache-Control', `public, max-age=${LIMITS.jwksMaxAgeSeconds}`).send(jwks);
    },
  );
}
