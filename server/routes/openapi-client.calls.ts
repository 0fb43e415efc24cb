/**
 * What a partner backend, the loader and a wallet send, written against a client nobody typed by
 * hand: openapi-fetch over the types openapi-typescript generates from the served /docs/json
 * (module `svc-openapi-schema`). openapi-client.test.ts generates those types from a running
 * service, compiles this file against them (a missing request body, parameter, answer field or
 * error code is a type error), then runs these journeys against that same service.
 *
 * server/tsconfig.json leaves this file out: the types it compiles against exist only once the test
 * has generated them. At run time the type imports vanish and nothing else depends on them.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from 'svc-openapi-schema';
import type {
  Attributes,
  BillingSessionBody,
  BillingSessionCreated,
  BlindVerifyRequestBody,
  DcApiRequest,
  DcRequest,
  ExchangeResponse,
  FailReason,
  IntrospectResponse,
  PartnerVerifyRequestBody,
  PartnerVerifyRequestCreated,
  PhoneMethod,
  PhoneOpened,
  RequestStatus,
  StandardVerifyRequestBody,
  VerifyRequestCreated,
  VerifyResult,
  VerifyStatus,
  WidgetVerifyStatus,
  WalletResponseError,
} from '../../src/protocol/wire.ts';
import type { QrModules } from '../../src/protocol/qr.ts';
import type { Scope } from '../../src/protocol/scopes.ts';
import { signRequest } from '../sdk/signing.ts';

export type ServiceClient = Client<paths>;

/** The parts of the OpenAPI document the signing middleware reads. */
export interface SecurityDocument {
  paths: Record<string, Record<string, { security?: Array<Record<string, string[]>> }>>;
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
}

export interface PartnerCredentials {
  id: string;
  secret: string;
}

/**
 * Signs every operation the document gives a security requirement: the HMAC headers computed over
 * the exact body this request carries ('' for a GET), each sent under the header name the
 * document's security scheme gives. openapi-fetch leaves security schemes to a middleware like
 * this one; header parameters would instead make every call pass a signature it cannot compute
 * before the client has serialised the body.
 *
 * @example client.use(partnerSigning(document, { id: 'pk_test_demo', secret }, () => Math.floor(Date.now() / 1000)))
 */
export function partnerSigning(
  document: SecurityDocument,
  partner: PartnerCredentials,
  nowSeconds: () => number,
): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      const requirements = document.paths[schemaPath]?.[request.method.toLowerCase()]?.security ?? [];
      if (requirements.length === 0) return undefined;
      const body = await request.clone().text();
      const signed: Record<string, string> = {
        ...signRequest({ partnerId: partner.id, secret: partner.secret, body, timestamp: nowSeconds() }),
      };
      for (const scheme of Object.keys(requirements[0]!)) {
        const { type, in: where, name } = document.components.securitySchemes[scheme] ?? {};
        if (type !== 'apiKey' || where !== 'header' || !name) throw new Error(`${scheme} is not a header API key`);
        const value = Object.entries(signed).find(([header]) => header.toLowerCase() === name.toLowerCase())?.[1];
        if (value === undefined) throw new Error(`${scheme} names ${name}, which signing does not produce`);
        request.headers.set(name, value);
      }
      return request;
    },
  };
}

/** A client of the service at `baseUrl`, with the given middleware (a partner's signing). */
export function createServiceClient(baseUrl: string, ...middleware: Middleware[]): ServiceClient {
  const client = createClient<paths>({ baseUrl });
  for (const one of middleware) client.use(one);
  return client;
}

/** One call as it went: the operation, what came back and the correlation id of its answer. */
export interface Step {
  operation: string;
  status: number;
  body: unknown;
  correlationId: string | null;
  retryAfter: string | null;
}

/** Records each call's answer, and hands the typed result back unchanged. */
export class Transcript {
  readonly steps: Step[] = [];

  async record<T extends { data?: unknown; error?: unknown; response: Response }>(
    operation: string,
    call: Promise<T>,
  ): Promise<T> {
    const result = await call;
    this.steps.push({
      operation,
      status: result.response.status,
      body: result.data ?? result.error,
      correlationId: result.response.headers.get('X-SVC-CID'),
      retryAfter: result.response.headers.get('Retry-After'),
    });
    return result;
  }
}

/** The success answer of a call, or an error naming what came instead. */
function ok<T>(operation: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${operation}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

/** What the test does outside the documented surface: the sandbox phone's persona picker, a wallet. */
export interface Outside {
  /** completes the request on the sandbox phone, approved (its persona picker is not documented) */
  completeOnPhone(requestId: string, handoff: string): Promise<void>;
  /** a wallet's answer to an `av://` link: the direct_post form */
  presentWithWallet(walletLink: string): Promise<URLSearchParams>;
  /** a wallet's answer to a signed link whose request object it fetched: the form holding `response` */
  presentSigned(walletLink: string, requestObject: string): Promise<URLSearchParams>;
  /** what the Digital Credentials API resolves to for `dcRequest` on the page at `origin` (a French adult's PID) */
  presentWithDcApi(
    dcRequest: DcApiRequest,
    origin: string,
  ): Promise<{ protocol: DcApiRequest['protocol']; data: { response: string } }>;
  /** a session token of a partner that opted in to private attestations (its billing call is the one above) */
  privateSessionToken(): Promise<string>;
  /** the widget's blinded TokenRequest, base64url, for the current key of scope mask 1 in `keySet` */
  blindTokenRequest(keySet: unknown): Promise<string>;
}

export interface Clients {
  /** signs as a STANDARD partner */
  partner: ServiceClient;
  /** signs as an ADULT_BLIND partner */
  blindPartner: ServiceClient;
  /** no signature: the loader, the phone, a wallet */
  open: ServiceClient;
  /** the partner page's origin, the loader's Origin header */
  origin: string;
}

const handoffOf = (deepLink: string): string => new URL(deepLink).hash.replace(/^#h=/, '');

/** The loader's create, as the partner page's browser sends it (Origin: the page). */
function widgetCreate(clients: Clients, body: StandardVerifyRequestBody | BlindVerifyRequestBody) {
  return clients.open.POST('/api/w/verify-request', { body, headers: { Origin: clients.origin } });
}

function widgetStatus(
  client: ServiceClient,
  requestId: string,
  pollToken: string,
  query: { wait?: number; known?: RequestStatus } = {},
) {
  return client.GET('/api/w/verify-status/{requestId}', {
    params: { path: { requestId }, query: { pt: pollToken, ...query } },
  });
}

function partnerStatus(client: ServiceClient, requestId: string, query: { wait?: number; known?: RequestStatus } = {}) {
  return client.GET('/api/partner/verify-status/{requestId}', { params: { path: { requestId }, query } });
}

function openOnPhone(client: ServiceClient, requestId: string, handoff: string) {
  return client.POST('/api/m/requests/{requestId}/open', { params: { path: { requestId } }, body: { h: handoff } });
}

/** The partner backend's side of the STANDARD rail once it holds a grant code. */
async function exchangeAndIntrospect(clients: Clients, t: Transcript, grantCode: string) {
  const exchanged = ok(
    'exchange',
    await t.record(
      'POST /v1/exchange',
      clients.partner.POST('/v1/exchange', {
        body: { grant_code: grantCode },
        params: { header: { 'idempotency-key': `exchange-${grantCode.slice(2, 18)}` } },
      }),
    ),
  );
  const active = ok(
    'introspect',
    await t.record(
      'POST /v1/introspect',
      clients.partner.POST('/v1/introspect', { body: { pass_token: exchanged.pass_token } }),
    ),
  );
  const inactive = ok(
    'introspect',
    await t.record(
      'POST /v1/introspect',
      clients.partner.POST('/v1/introspect', { body: { pass_token: 'p_unknown' } }),
    ),
  );
  return { exchanged, active, inactive };
}

/**
 * The loader on the STANDARD rail in client proof mode: create, poll, the phone opens, a long
 * poll waits while the wallet answers (OpenID4VP direct_post), then the partner exchanges the
 * grant and introspects the pass token.
 */
export async function walletJourney(clients: Clients, outside: Outside, t: Transcript) {
  const created = ok(
    'create',
    await t.record(
      'POST /api/w/verify-request',
      widgetCreate(clients, { partner_id: 'pk_test_demo', scopes: ['isAdult'], client_proof_mode: true, locale: 'en' }),
    ),
  );
  const first = ok(
    'status',
    await t.record(
      'GET /api/w/verify-status/{requestId}',
      widgetStatus(clients.open, created.request_id, created.poll_token),
    ),
  );
  const opened = ok(
    'open',
    await t.record(
      'POST /api/m/requests/{requestId}/open',
      openOnPhone(clients.open, created.request_id, handoffOf(created.deep_link)),
    ),
  );
  const longPoll = t.record(
    'GET /api/w/verify-status/{requestId}',
    widgetStatus(clients.open, created.request_id, created.poll_token, { wait: 25, known: opened.status }),
  );
  const form = await outside.presentWithWallet(created.wallet_link!);
  const answered = ok(
    'direct_post',
    await t.record(
      'POST /oid4vp/response/{requestId}',
      clients.open.POST('/oid4vp/response/{requestId}', {
        params: { path: { requestId: created.request_id } },
        body: { vp_token: form.get('vp_token')!, state: form.get('state')! },
        bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    ),
  );
  const done = ok('long poll', await longPoll);
  if (!done.result || !('grant_code' in done.result)) throw new Error(`no grant code: ${JSON.stringify(done)}`);
  const grantCode = done.result.grant_code;
  return { created, first, opened, answered, done, ...(await exchangeAndIntrospect(clients, t, grantCode)) };
}

/**
 * The loader in client proof mode for isAdult and isFrench on a service holding an access
 * certificate (docs/design.md §16): the wallet fetches the signed request object and answers with a
 * JWE by direct_post.jwt.
 */
export async function signedWalletJourney(clients: Clients, outside: Outside, t: Transcript) {
  const created = ok(
    'create',
    await t.record(
      'POST /api/w/verify-request',
      widgetCreate(clients, { partner_id: 'pk_test_demo', scopes: ['isAdult', 'isFrench'], client_proof_mode: true }),
    ),
  );
  const requestObject = ok(
    'request object',
    await t.record(
      'GET /oid4vp/request/{requestId}',
      clients.open.GET('/oid4vp/request/{requestId}', {
        params: { path: { requestId: created.request_id } },
        parseAs: 'text',
      }),
    ),
  );
  // request_uri_method=post (design.md §19): the same object signed now, with the wallet's nonce
  ok(
    'request object by POST',
    await t.record(
      'POST /oid4vp/request/{requestId}',
      clients.open.POST('/oid4vp/request/{requestId}', {
        params: { path: { requestId: created.request_id } },
        body: { wallet_nonce: 'wn-openapi-client-1' },
        bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        parseAs: 'text',
      }),
    ),
  );
  const form = await outside.presentSigned(created.wallet_link!, requestObject);
  const answered = ok(
    'direct_post.jwt',
    await t.record(
      'POST /oid4vp/response/{requestId}',
      clients.open.POST('/oid4vp/response/{requestId}', {
        params: { path: { requestId: created.request_id } },
        body: { response: form.get('response')! },
        bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    ),
  );
  const done = ok(
    'status',
    await t.record(
      'GET /api/w/verify-status/{requestId}',
      widgetStatus(clients.open, created.request_id, created.poll_token),
    ),
  );
  return { created, requestObject, answered, done };
}

/**
 * The loader in client proof mode for isAdult and isFrench, answered on the same device through the
 * Digital Credentials API's OpenID4VP request (the last of `dc_requests`, Chrome's).
 */
export async function dcApiJourney(clients: Clients, outside: Outside, t: Transcript) {
  const created = ok(
    'create',
    await t.record(
      'POST /api/w/verify-request',
      widgetCreate(clients, { partner_id: 'pk_test_demo', scopes: ['isAdult', 'isFrench'], client_proof_mode: true }),
    ),
  );
  const credential = await outside.presentWithDcApi(created.dc_requests!.at(-1)!, clients.origin);
  const answered = ok(
    'wallet response',
    await t.record(
      'POST /api/w/wallet-response/{requestId}',
      clients.open.POST('/api/w/wallet-response/{requestId}', {
        params: { path: { requestId: created.request_id }, query: { pt: created.poll_token } },
        body: credential,
        headers: { Origin: clients.origin },
      }),
    ),
  );
  const done = ok(
    'status',
    await t.record(
      'GET /api/w/verify-status/{requestId}',
      widgetStatus(clients.open, created.request_id, created.poll_token),
    ),
  );
  return { created, answered, done };
}

/** A STANDARD partner backend without the loader: create signed, poll signed (long poll), exchange. */
export async function partnerJourney(clients: Clients, outside: Outside, t: Transcript) {
  const created = ok(
    'create',
    await t.record(
      'POST /api/partner/verify-request',
      clients.partner.POST('/api/partner/verify-request', {
        body: { scopes: ['isAdult', 'isFrench'], client_proof_mode: false, locale: 'fr' },
      }),
    ),
  );
  const first = ok(
    'status',
    await t.record('GET /api/partner/verify-status/{requestId}', partnerStatus(clients.partner, created.request_id)),
  );
  const handoff = handoffOf(created.deep_link);
  const opened = ok(
    'open',
    await t.record('POST /api/m/requests/{requestId}/open', openOnPhone(clients.open, created.request_id, handoff)),
  );
  const longPoll = t.record(
    'GET /api/partner/verify-status/{requestId}',
    partnerStatus(clients.partner, created.request_id, { wait: 25, known: opened.status }),
  );
  await outside.completeOnPhone(created.request_id, handoff);
  const done = ok('long poll', await longPoll);
  const grantCode = done.result?.grant_code;
  if (!grantCode) throw new Error(`no grant code: ${JSON.stringify(done)}`);
  return { created, first, opened, done, ...(await exchangeAndIntrospect(clients, t, grantCode)) };
}

/** The ADULT_BLIND rail: the partner backend's session token, the loader's request, the attestation and its keys. */
export async function blindJourney(clients: Clients, outside: Outside, t: Transcript) {
  const body: BillingSessionBody = { origin: clients.origin, scopes: ['isAdult'] };
  const session = ok(
    'billing session',
    await t.record('POST /api/billing/session', clients.blindPartner.POST('/api/billing/session', { body })),
  );
  const created = ok(
    'create',
    await t.record('POST /api/w/verify-request', widgetCreate(clients, { session_token: session.token })),
  );
  await outside.completeOnPhone(created.request_id, handoffOf(created.deep_link));
  const done = ok(
    'status',
    await t.record(
      'GET /api/w/verify-status/{requestId}',
      widgetStatus(clients.open, created.request_id, created.poll_token),
    ),
  );
  const keys = ok(
    'attestation keys',
    await t.record('GET /api/billing/attestation-keys', clients.open.GET('/api/billing/attestation-keys')),
  );
  // The same with private attestations (docs/adult-blind.md#private-attestations).
  const privateCreated = ok(
    'create (private)',
    await t.record(
      'POST /api/w/verify-request',
      widgetCreate(clients, { session_token: await outside.privateSessionToken() }),
    ),
  );
  await outside.completeOnPhone(privateCreated.request_id, handoffOf(privateCreated.deep_link));
  const privateDone = ok(
    'status (private)',
    await t.record(
      'GET /api/w/verify-status/{requestId}',
      widgetStatus(clients.open, privateCreated.request_id, privateCreated.poll_token),
    ),
  );
  const privateKeys = ok(
    'private attestation keys',
    await t.record(
      'GET /api/billing/private-attestation-keys',
      clients.open.GET('/api/billing/private-attestation-keys'),
    ),
  );
  const signed = ok(
    'private attestation',
    await t.record(
      'POST /api/w/private-attestation/{requestId}',
      clients.open.POST('/api/w/private-attestation/{requestId}', {
        params: { path: { requestId: privateCreated.request_id }, query: { pt: privateCreated.poll_token } },
        body: { token_request: await outside.blindTokenRequest(privateKeys) },
      }),
    ),
  );
  return { session, created, done, keys, privateCreated, privateDone, privateKeys, signed };
}

/** Refusals a client must be able to read: each answers its documented status and catalogue code. */
export async function refusals(clients: Clients, _outside: Outside, t: Transcript) {
  const created = ok(
    'create',
    await t.record('POST /api/w/verify-request', widgetCreate(clients, { partner_id: 'pk_test_demo' })),
  );
  const wrongToken = await t.record(
    'GET /api/w/verify-status/{requestId}',
    widgetStatus(clients.open, created.request_id, 'pt_wrong'),
  );
  const badWait = await t.record(
    'GET /api/partner/verify-status/{requestId}',
    clients.partner.GET('/api/partner/verify-status/{requestId}', {
      params: { path: { requestId: created.request_id }, query: { wait: 26 } },
    }),
  );
  // Not this partner's own request (the loader made it): the same 404 as an unknown one.
  const notOwn = await t.record(
    'GET /api/partner/verify-status/{requestId}',
    partnerStatus(clients.partner, created.request_id),
  );
  const unsigned = await t.record(
    'GET /api/partner/verify-status/{requestId}',
    partnerStatus(clients.open, created.request_id),
  );
  const otherOrigin = await t.record(
    'POST /api/billing/session',
    clients.blindPartner.POST('/api/billing/session', { body: { origin: 'https://elsewhere.example' } }),
  );
  const junkCredential = await t.record(
    'POST /api/w/wallet-response/{requestId}',
    clients.open.POST('/api/w/wallet-response/{requestId}', {
      params: { path: { requestId: created.request_id }, query: { pt: created.poll_token } },
      body: { protocol: 'org-iso-mdoc', data: { response: 'AAAA' } },
      headers: { Origin: clients.origin },
    }),
  );
  // A request answers 30 polls a minute: the 31st is refused with Retry-After.
  let limited = await widgetStatus(clients.open, created.request_id, created.poll_token);
  for (let poll = 1; poll <= 30 && limited.response.status !== 429; poll++) {
    limited = await widgetStatus(clients.open, created.request_id, created.poll_token);
  }
  await t.record('GET /api/w/verify-status/{requestId}', Promise.resolve(limited));
  return {
    wrongToken: wrongToken.error?.error === 'NOT_FOUND',
    badWait: badWait.error?.error === 'INVALID_REQUEST',
    notOwn: notOwn.error?.error === 'NOT_FOUND',
    unsigned: unsigned.error?.error === 'MISSING_HEADERS',
    otherOrigin: otherOrigin.error?.error === 'ORIGIN_NOT_ALLOWED',
    junkCredential: junkCredential.error?.error === 'invalid_request',
    limited: limited.error?.error === 'RATE_LIMITED',
  };
}

// ---- What the generated types say, checked against the protocol's own types ----------------------

type Keys<T> = T extends unknown ? keyof T : never;
/** true when A and B name the same fields (every member of a union counted). */
type SameKeys<A, B> = [Keys<A>] extends [Keys<B>] ? ([Keys<B>] extends [Keys<A>] ? true : false) : false;
/** true when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** true when A and B are the same type and name the same fields. */
type Matches<A, B> = Same<A, B> extends true ? SameKeys<A, B> : false;
type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;
/** The JSON answer of an operation for a status (never when the document has none). */
type Reply<Op, S extends number> = Op extends { responses: infer R } ? (S extends keyof R ? Json<R[S]> : never) : never;
/** The JSON request body of an operation (never when the document has none). */
type BodyOf<Op> = Op extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

type Exchange = paths['/v1/exchange']['post'];
type Introspect = paths['/v1/introspect']['post'];
type BillingSession = paths['/api/billing/session']['post'];
type WidgetCreate = paths['/api/w/verify-request']['post'];
type WidgetStatus = paths['/api/w/verify-status/{requestId}']['get'];
type PartnerCreate = paths['/api/partner/verify-request']['post'];
type PartnerStatus = paths['/api/partner/verify-status/{requestId}']['get'];
type PhoneOpen = paths['/api/m/requests/{requestId}/open']['post'];
type DirectPost = paths['/oid4vp/response/{requestId}']['post'];
type DcApiResponse = paths['/api/w/wallet-response/{requestId}']['post'];

/**
 * The document's bodies and answers against the protocol types the service builds them from
 * (src/protocol/wire.ts): the same fields (a field a response schema left out, which the serializer
 * would drop, or one it invented) and, where the document can say as much, the same types (a field
 * optional on one side only, an enumeration that differs). Any `false` here fails the compile.
 */
export const DOCUMENT_MATCHES_PROTOCOL: true[] = [
  true satisfies Matches<BodyOf<BillingSession>, BillingSessionBody>,
  true satisfies Matches<BodyOf<WidgetCreate>, Partial<StandardVerifyRequestBody & BlindVerifyRequestBody>>,
  true satisfies Matches<BodyOf<PartnerCreate>, PartnerVerifyRequestBody>,
  true satisfies Matches<Reply<Exchange, 200>, ExchangeResponse>,
  true satisfies SameKeys<Reply<Exchange, 200>['attributes'], Omit<Attributes, 'verification_method' | 'verified_at'>>,
  // The document cannot say that `active: false` comes alone: the same fields, each optional.
  true satisfies SameKeys<Reply<Introspect, 200>, IntrospectResponse>,
  true satisfies Matches<NonNullable<Reply<Introspect, 200>['attributes']>, Attributes>,
  // `expires_in` is 300, the document says integer.
  true satisfies SameKeys<Reply<BillingSession, 201>, BillingSessionCreated>,
  true satisfies Matches<Reply<WidgetCreate, 201>, VerifyRequestCreated>,
  true satisfies Matches<NonNullable<Reply<WidgetCreate, 201>['qr']>, QrModules>,
  true satisfies Matches<NonNullable<Reply<WidgetCreate, 201>['dc_request']>, DcRequest>,
  true satisfies SameKeys<NonNullable<Reply<WidgetCreate, 201>['dc_requests']>[number], DcApiRequest>,
  true satisfies Same<
    NonNullable<Reply<WidgetCreate, 201>['dc_requests']>[number]['protocol'],
    DcApiRequest['protocol']
  >,
  true satisfies Matches<Reply<WidgetStatus, 200>, WidgetVerifyStatus>,
  true satisfies Matches<NonNullable<Reply<WidgetStatus, 200>['result']>, NonNullable<WidgetVerifyStatus['result']>>,
  true satisfies Same<Reply<WidgetStatus, 200>['status'], RequestStatus>,
  true satisfies Same<NonNullable<Reply<WidgetStatus, 200>['reason']>, FailReason>,
  true satisfies Matches<Reply<PartnerCreate, 201>, PartnerVerifyRequestCreated>,
  // The partner variant's result is a grant code, never an attestation.
  true satisfies SameKeys<Reply<PartnerStatus, 200>, VerifyStatus>,
  true satisfies Matches<
    NonNullable<Reply<PartnerStatus, 200>['result']>,
    Extract<VerifyResult, { grant_code: string }>
  >,
  true satisfies SameKeys<Reply<PhoneOpen, 200>, PhoneOpened>,
  true satisfies SameKeys<Reply<PhoneOpen, 200>['methods'][number], PhoneMethod>,
  true satisfies Same<Reply<PhoneOpen, 200>['scopes'][number], Scope>,
  true satisfies Matches<Reply<DirectPost, 400>, WalletResponseError>,
  true satisfies Matches<Reply<DcApiResponse, 400>, WalletResponseError>,
];

/** Calls the generated types refuse: each must fail to compile (`@ts-expect-error` fails otherwise). */
export function refusedByTheTypes(client: ServiceClient, body: PartnerVerifyRequestBody): void {
  // @ts-expect-error the billing session has a request body, and it is required
  void client.POST('/api/billing/session', {});
  // @ts-expect-error its origin is required
  void client.POST('/api/billing/session', { body: { scopes: ['isAdult'] } });
  // @ts-expect-error the exchange needs grant_code
  void client.POST('/v1/exchange', { body: {} });
  // @ts-expect-error the loader's status needs its poll token
  void client.GET('/api/w/verify-status/{requestId}', { params: { path: { requestId: 'vr_x' }, query: {} } });
  void client.GET('/api/partner/verify-status/{requestId}', {
    // @ts-expect-error wait is a number of seconds
    params: { path: { requestId: 'vr_x' }, query: { wait: 'long' } },
  });
  void client.GET('/api/partner/verify-status/{requestId}', {
    // @ts-expect-error known is a status
    params: { path: { requestId: 'vr_x' }, query: { known: 'done' } },
  });
  // @ts-expect-error no scope has that name
  void client.POST('/api/partner/verify-request', { body: { ...body, scopes: ['isOld'] } });
  // @ts-expect-error the partner's status takes its request id in the path
  void client.GET('/api/partner/verify-status/{requestId}', {});
}
