/**
 * ADULT_BLIND pages of the example partner
 * (docs/adult-blind.md#the-example-partners-adult_blind-pages). What a partner on that rail builds,
 * and nothing more:
 *
 *   GET  /blind                 fetches a FRESH session token (SDK createSession) on every load
 *                               and embeds the loader with data-session-token
 *   GET  /blind-server-verify   the same, with the loader's server-verify mode on /api/blind/confirm
 *   GET  /blind/success         the success path: reads #attestation=, clears it, posts it here;
 *                               `?scopes=` (set by the page that asked) says what was asked for
 *   POST /api/blind/verify      verifies the attestation OFFLINE (SDK verifyAttestation against the
 *                               published keys), answers its facts in words; the service is never
 *                               told about it
 *   GET  /api/blind/confirm     server-verify: X-SVC-Attestation checked offline → {verified}
 *
 * The partner's own credentials stay on this server; the browser sees a session token that
 * names the blind app and the origin hash, never the partner. Both endpoints bind the
 * attestation to the visitor's session (session.ts) and refuse its jti from any other session
 * with 409 ATTESTATION_ALREADY_USED.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AttestationError,
  BILLING_SCOPES,
  createSession,
  SVC_HEADERS,
  verifyAttestation,
  type BillingScope,
  type CreateSessionOptions,
  type VerifyAttestationOptions,
} from '../../sdk/index.ts';
import type { PartnerContext, PartnerRoutes } from '../context.ts';
import { readPageLocale, WORDS } from '../copy.ts';
import { describeAttestation, type Fact } from '../facts.ts';
import { createAttestationMemory } from '../results.ts';
import { pageHref, readWidgetOptions, shopValues, widgetPageValues } from './standard.ts';

export interface BlindPagesOptions {
  /** the adult_blind partner's credentials (pk_test_blind_shop in the fixtures) */
  partner: { id: string; secret: string };
  /** the blind application id the operator gave at onboarding (app_blind_shop in the fixtures) */
  appId: string;
  /** defaults to `{serviceUrl}/api/billing/attestation-keys` */
  jwksUrl?: string;
  /** tests pass fetch/clock/sleep to the billing call */
  sessionOptions?: Pick<CreateSessionOptions, 'fetch' | 'clock' | 'sleep'>;
  /** tests pass fetch and a clock to the offline check */
  verifyOptions?: { fetch?: typeof fetch; now?: () => number };
}

/** What the success page and the server-verify endpoint learn: the facts, nothing else. */
export interface BlindVerifyAnswer {
  verified: true;
  /** `verified`: first presented now; `remembered`: this session presented it before (server-verify, then the success page) */
  source: 'verified' | 'remembered';
  adult: boolean;
  french: boolean;
  eu: boolean;
  unique: boolean;
  /** only when isUnique was asked for: same person on this site, same value */
  nullifier?: string;
  /** Unix seconds */
  exp: number;
  /** the same facts in words, in the page's language (facts.ts describeAttestation) */
  facts: Fact[];
}

const MAX_ATTESTATION_LENGTH = 8 * 1024;

/**
 * `?scopes=` for the billing session, limited to what the ADULT_BLIND rail accepts; anything
 * else falls back to [isAdult] rather than being reflected.
 *
 * @example readBlindScopes('isAdult,isUnique') // ['isAdult', 'isUnique']
 */
export function readBlindScopes(raw: unknown): BillingScope[] {
  const scopes = typeof raw === 'string' ? raw.split(',').filter(Boolean) : [];
  const isBillingScope = (s: string) => (BILLING_SCOPES as readonly string[]).includes(s);
  const valid = scopes.length > 0 && new Set(scopes).size === scopes.length && scopes.every(isBillingScope);
  return valid ? (scopes as BillingScope[]) : ['isAdult'];
}

/** Why a verified attestation is not accepted here: its jti belongs to another session, or cannot be remembered. */
export class AttestationReuseError extends Error {
  readonly code: 'ATTESTATION_ALREADY_USED' | 'TOO_MANY_ATTESTATIONS';
  readonly status: 409 | 503;

  constructor(code: AttestationReuseError['code']) {
    super(
      code === 'ATTESTATION_ALREADY_USED'
        ? 'This attestation was already used in another browser session.'
        : 'Too many attestations to remember right now; try again in a few minutes.',
    );
    this.code = code;
    this.status = code === 'ATTESTATION_ALREADY_USED' ? 409 : 503;
  }
}

/**
 * The ADULT_BLIND pages as a `PartnerRoutes` function; app.ts registers it only when it is given
 * the `blind` options (an ADULT_BLIND partner).
 *
 * @example
 * createBlindPages({ partner: PARTNERS.blindShop, appId: 'app_blind_shop' })(app, context);
 */
export function createBlindPages(options: BlindPagesOptions): PartnerRoutes {
  return (app, context) => registerBlindPages(app, context, options);
}

/** @example registerBlindPages(app, context, { partner, appId: 'app_blind_shop' }) */
export function registerBlindPages(app: FastifyInstance, context: PartnerContext, options: BlindPagesOptions): void {
  const now = options.verifyOptions?.now ?? Date.now;
  const memory = createAttestationMemory({ now });
  const verifyOptions = (): VerifyAttestationOptions => ({
    appId: options.appId,
    origin: context.origin,
    jwksUrl: options.jwksUrl ?? `${context.serviceUrl}/api/billing/attestation-keys`,
    now: now(),
    ...(options.verifyOptions?.fetch ? { fetch: options.verifyOptions.fetch } : {}),
  });

  // The signature proves the service issued the attestation, not who is presenting it: it is a
  // bearer value in a URL, and the service never hears of it again, so only this site can tell
  // a copy from the original. The first session to present a jti owns it until its exp.
  async function check(
    attestation: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Omit<BlindVerifyAnswer, 'facts'>> {
    const result = await verifyAttestation(attestation, verifyOptions());
    const claim = memory.claim(result.jti, result.exp, context.sessions.idOf(request, reply));
    if (claim === 'used') throw new AttestationReuseError('ATTESTATION_ALREADY_USED');
    if (claim === 'full') throw new AttestationReuseError('TOO_MANY_ATTESTATIONS');
    return {
      verified: true,
      source: claim === 'remembered' ? 'remembered' : 'verified',
      adult: result.adult,
      french: result.french,
      eu: result.eu,
      unique: result.unique,
      ...(result.unique && result.nullifier ? { nullifier: result.nullifier } : {}),
      exp: result.exp,
    };
  }

  async function sendWidgetPage(
    page: 'blind' | 'blind-server-verify',
    query: Record<string, string | undefined>,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const widget = { ...readWidgetOptions(query), scopes: readBlindScopes(query.scopes) };
    const { pageLocale, scopes } = widget;
    try {
      // A fresh token on every page load, never cached: it lives 300 s and is bound to this origin.
      const session = await createSession(
        { appUrl: context.serviceUrl, partnerId: options.partner.id, secret: options.partner.secret },
        { origin: context.origin, scopes },
        { ...options.sessionOptions, retry: { maxAttempts: 2, maxRetryAfterMs: 2_000 } },
      );
      return context.pages.send(reply, page, {
        ...widgetPageValues(page, widget),
        serviceUrl: context.serviceUrl,
        sessionToken: session.token,
        // The attestation has a bit only for a fact asked for and proven: the success page
        // needs to know what was asked to tell "no" from "not asked".
        successPath: pageHref('/blind/success', { locale: pageLocale, scopes }),
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      reply.log.warn({ code, cid: (error as { cid?: unknown }).cid }, 'billing session refused');
      reply.code(503);
      const words = WORDS[pageLocale];
      return context.pages.send(reply, 'blind-unavailable', {
        ...shopValues(pageLocale),
        ...words.unavailable,
        errorCode: words.result.errorCode,
        code: typeof code === 'string' ? code : 'INTERNAL_ERROR',
      });
    }
  }

  app.get<{ Querystring: Record<string, string | undefined> }>('/blind', (request, reply) =>
    sendWidgetPage('blind', request.query, reply),
  );
  app.get<{ Querystring: Record<string, string | undefined> }>('/blind-server-verify', (request, reply) =>
    sendWidgetPage('blind-server-verify', request.query, reply),
  );
  app.get<{ Querystring: Record<string, string | undefined> }>('/blind/success', async (request, reply) => {
    const locale = readPageLocale(request.query.locale);
    const words = WORDS[locale];
    return context.pages.send(reply, 'blind-success', {
      ...shopValues(locale),
      title: words.resultHeading,
      heading: words.resultHeading,
      checking: words.result.checking,
      resultWords: JSON.stringify(words.result),
      asked: readBlindScopes(request.query.scopes).join(','),
      appId: options.appId,
    });
  });

  app.post('/api/blind/verify', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const body = request.body as { attestation?: unknown; scopes?: unknown; locale?: unknown } | undefined;
    const attestation = body?.attestation;
    if (typeof attestation !== 'string' || attestation.length === 0 || attestation.length > MAX_ATTESTATION_LENGTH) {
      return reply.code(400).send({ error: 'INVALID_REQUEST', message: 'attestation is required.' });
    }
    try {
      const answer = await check(attestation, request, reply);
      const facts = describeAttestation(answer, readBlindScopes(body?.scopes), readPageLocale(body?.locale));
      return { ...answer, facts } satisfies BlindVerifyAnswer;
    } catch (error) {
      if (error instanceof AttestationReuseError) {
        request.log.info({ code: error.code }, 'attestation refused');
        return reply.code(error.status).send({ verified: false, error: error.code, message: error.message });
      }
      if (error instanceof AttestationError) {
        request.log.info({ code: error.code }, 'attestation refused');
        const status = error.code === 'KEYS_UNAVAILABLE' ? 502 : 401;
        return reply.code(status).send({ verified: false, error: error.code, message: error.message });
      }
      throw error;
    }
  });

  // Server-verify (design.md §7): the loader asks at most once a second, with the attestation in a
  // header, until the answer says verified: true.
  app.get('/api/blind/confirm', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const attestation = request.headers[SVC_HEADERS.attestation];
    if (typeof attestation !== 'string' || attestation.length > MAX_ATTESTATION_LENGTH) return { verified: false };
    try {
      await check(attestation, request, reply);
      // Like the STANDARD confirm: the result checked out; the success page shows what it says.
      return { verified: true };
    } catch (error) {
      if (error instanceof AttestationReuseError) {
        request.log.info({ code: error.code }, 'attestation refused');
        return reply.code(error.status).send({ verified: false, error: error.code });
      }
      request.log.info(
        { code: error instanceof AttestationError ? error.code : 'INTERNAL_ERROR' },
        'attestation did not check out',
      );
      return { verified: false };
    }
  });
}
