/**
 * The private ADULT_BLIND pages of the example partner (docs/adult-blind.md#private-attestations):
 * what a partner that opted in to private attestations (`svc partners add … --attestation
 * private`) builds, and nothing more:
 *
 *   GET  /private               a fresh session token (SDK createSession) and a fresh redemption
 *                               context (32 random bytes) on every load, the context remembered for
 *                               this visitor's session; the loader embedded with both
 *   GET  /private/success       the success path: reads #attestation=, clears it, posts it here
 *   POST /api/private/verify    verifies the token OFFLINE (SDK verifyPrivateAttestation against the
 *                               published keys) for one of this session's contexts, and uses the
 *                               context up: the same token presented again is refused (REUSED)
 *
 * The service never sees the redemption context, nor the token: it cannot link this visit to
 * the verification (docs/privacy.md).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createSession,
  PrivateAttestationError,
  verifyPrivateAttestation,
  type BillingScope,
  type CreateSessionOptions,
  type PrivateAttestationKeySet,
} from '../../sdk/index.ts';
import type { PartnerContext, PartnerRoutes } from '../context.ts';
import { readPageLocale, WORDS } from '../copy.ts';
import { describeAttestation } from '../facts.ts';
import { readBlindScopes } from './blind.ts';
import { pageHref, readWidgetOptions, shopValues, widgetPageValues } from './standard.ts';

export interface PrivatePagesOptions {
  /** the adult_blind partner opted in to private attestations (pk_test_blind_private in the fixtures) */
  partner: { id: string; secret: string };
  /** its blind application id (app_blind_private in the fixtures) */
  appId: string;
  /** tests pass fetch to the billing call and to the key set's */
  fetch?: typeof fetch;
  now?: () => number;
}

/** A context lives as long as a page could wait for its widget: the session token's 300 s and the request's, with room. */
const CONTEXT_TTL_MS = 30 * 60_000;
/** Contexts remembered at once, all sessions together: a page view beyond it forgets the oldest. */
const MAX_CONTEXTS = 10_000;
/** Contexts one session keeps (its open tabs); a verify tries each. */
const MAX_CONTEXTS_PER_SESSION = 8;
/** How long a fetched key set is used (the endpoint says an hour). */
const KEYS_TTL_MS = 60 * 60_000;
const MAX_ATTESTATION_LENGTH = 1024;

/**
 * `?scopes=` for a private session: isAdult is needed and isUnique refused by the service
 * (its nullifier would link the visits), so anything else falls back to [isAdult].
 *
 * @example readPrivateScopes('isAdult,isEU') // ['isAdult', 'isEU']; readPrivateScopes('isAdult,isUnique') // ['isAdult']
 */
export function readPrivateScopes(raw: unknown): BillingScope[] {
  const scopes = readBlindScopes(raw);
  return scopes.includes('isAdult') && !scopes.includes('isUnique') ? scopes : ['isAdult'];
}

/** The private pages as a `PartnerRoutes` function; app.ts registers it only when given the `private` options. */
export function createPrivatePages(options: PrivatePagesOptions): PartnerRoutes {
  return (app, context) => registerPrivatePages(app, context, options);
}

/** @example registerPrivatePages(app, context, { partner, appId: 'app_blind_private' }) */
export function registerPrivatePages(
  app: FastifyInstance,
  context: PartnerContext,
  options: PrivatePagesOptions,
): void {
  const now = options.now ?? Date.now;
  /** redemption context → the session it was made for, when it was made, whether a token used it */
  const contexts = new Map<string, { session: string; madeAt: number; used: boolean }>();
  let keys: { set: PrivateAttestationKeySet; at: number } | undefined;

  function remember(session: string): string {
    const redemptionContext = randomBytes(32).toString('base64url');
    for (const [old, entry] of contexts)
      if (contexts.size >= MAX_CONTEXTS || now() - entry.madeAt > CONTEXT_TTL_MS) contexts.delete(old);
    const mine = [...contexts].filter(([, entry]) => entry.session === session);
    for (const [old] of mine.slice(0, Math.max(0, mine.length - MAX_CONTEXTS_PER_SESSION + 1))) contexts.delete(old);
    contexts.set(redemptionContext, { session, madeAt: now(), used: false });
    return redemptionContext;
  }

  async function keySet(): Promise<PrivateAttestationKeySet> {
    if (keys && now() - keys.at < KEYS_TTL_MS) return keys.set;
    const response = await (options.fetch ?? fetch)(`${context.serviceUrl}/api/billing/private-attestation-keys`);
    if (!response.ok) throw new Error(`private-attestation-keys answered ${response.status}`);
    keys = { set: (await response.json()) as PrivateAttestationKeySet, at: now() };
    return keys.set;
  }

  /** The token checked against each of this session's contexts: the one it was made for, used once. */
  async function check(attestation: string, request: FastifyRequest, session: string) {
    const set = await keySet();
    const mine = [...contexts].filter(
      ([, entry]) => entry.session === session && now() - entry.madeAt <= CONTEXT_TTL_MS,
    );
    let refusal: unknown = new PrivateAttestationError('WRONG_CONTEXT', 'no page of this session made this token');
    for (const [redemptionContext, entry] of mine) {
      try {
        return await verifyPrivateAttestation(attestation, {
          redemptionContext,
          keys: set,
          consumeContext: () => !entry.used && (entry.used = true),
        });
      } catch (error) {
        refusal = error;
        // another of this session's pages: try the next context; anything else is the answer
        if (!(error instanceof PrivateAttestationError && error.code === 'WRONG_CONTEXT')) break;
      }
    }
    request.log.info({ code: (refusal as { code?: unknown }).code }, 'private attestation refused');
    throw refusal;
  }

  app.get<{ Querystring: Record<string, string | undefined> }>('/private', async (request, reply) => {
    const widget = { ...readWidgetOptions(request.query), scopes: readPrivateScopes(request.query.scopes) };
    const { pageLocale, scopes } = widget;
    try {
      const session = await createSession(
        { appUrl: context.serviceUrl, partnerId: options.partner.id, secret: options.partner.secret },
        { origin: context.origin, scopes },
        {
          ...(options.fetch ? { fetch: options.fetch } : {}),
          retry: { maxAttempts: 2, maxRetryAfterMs: 2_000 },
        } satisfies Partial<CreateSessionOptions>,
      );
      return context.pages.send(reply, 'private', {
        ...widgetPageValues('blind', widget),
        serviceUrl: context.serviceUrl,
        sessionToken: session.token,
        redemptionContext: remember(context.sessions.idOf(request, reply)),
        successPath: pageHref('/private/success', { locale: pageLocale, scopes }),
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      reply.log.warn({ code }, 'billing session refused');
      reply.code(503);
      const words = WORDS[pageLocale];
      return context.pages.send(reply, 'blind-unavailable', {
        ...shopValues(pageLocale),
        ...words.unavailable,
        errorCode: words.result.errorCode,
        code: typeof code === 'string' ? code : 'INTERNAL_ERROR',
      });
    }
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/private/success', async (request, reply) => {
    const locale = readPageLocale(request.query.locale);
    const words = WORDS[locale];
    return context.pages.send(reply, 'private-success', {
      ...shopValues(locale),
      title: words.resultHeading,
      heading: words.resultHeading,
      checking: words.result.checking,
      resultWords: JSON.stringify(words.result),
      asked: readPrivateScopes(request.query.scopes).join(','),
    });
  });

  app.post('/api/private/verify', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const body = request.body as { attestation?: unknown; scopes?: unknown; locale?: unknown } | undefined;
    const attestation = body?.attestation;
    if (typeof attestation !== 'string' || attestation.length === 0 || attestation.length > MAX_ATTESTATION_LENGTH)
      return reply.code(400).send({ error: 'INVALID_REQUEST', message: 'attestation is required.' });
    try {
      const result = await check(attestation, request, context.sessions.idOf(request, reply));
      const facts = describeAttestation(
        { adult: result.adult, french: result.french, eu: result.eu },
        readPrivateScopes(body?.scopes),
        readPageLocale(body?.locale),
      );
      return {
        verified: true,
        source: 'verified',
        adult: result.adult,
        french: result.french,
        eu: result.eu,
        epoch: result.epoch,
        facts,
      };
    } catch (error) {
      if (error instanceof PrivateAttestationError) {
        const status = error.code === 'REUSED' ? 409 : 401;
        return reply.code(status).send({ verified: false, error: error.code, message: error.message });
      }
      throw error;
    }
  });
}
