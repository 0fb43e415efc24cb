/**
 * Wire shapes shared by the widget, the service, the SDK and the tests (design.md §3–5).
 * Types and constants only.
 */
import type { QrModules } from './qr.ts';
import type { ATTRIBUTE_TYPE, AttributeField, BlindScope, Scope } from './scopes.ts';

export const LOADER_PATH = '/v4/loader.min.js';

/** Header names (docs/partner-api.md#signing-with-a-worked-example). Node lower-cases incoming names. */
export const HEADERS = {
  partnerId: 'x-partner-id',
  timestamp: 'x-partner-timestamp',
  nonce: 'x-partner-nonce',
  signature: 'x-partner-signature',
  correlationId: 'x-svc-cid',
  idempotencyKey: 'idempotency-key',
  grantCode: 'x-svc-grant-code',
  attestation: 'x-svc-attestation',
} as const;

export const PREFIX = {
  grant: 'g_',
  pass: 'p_',
  poll: 'pt_',
  handoff: 'h_',
  request: 'vr_',
  liveId: 'pk_live_',
  testId: 'pk_test_',
} as const;

export type Rail = 'standard' | 'adult_blind';
/**
 * The widget's and the phone page's languages: the EU's 24 official languages (design.md §20,
 * docs/embedding.md#languages). `fr` is the default and stays first: the UI bundle carries it, the
 * others are scripts of their own (src/shared/locale.ts localeScriptUrl); the rest in the order of
 * their codes.
 */
export const LOCALES = [
  'fr',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'fi',
  'ga',
  'hr',
  'hu',
  'it',
  'lt',
  'lv',
  'mt',
  'nl',
  'pl',
  'pt',
  'ro',
  'sk',
  'sl',
  'sv',
] as const;
export type Locale = (typeof LOCALES)[number];
/** The sandbox phone's methods (design.md §4). */
export type Method = 'face_check' | 'eudi_wallet';
/**
 * A pass token's `verification_method`: a sandbox method, `eudi_wallet`, or an identity
 * provider's label (design.md §12, `[a-z0-9_]{1,40}`, e.g. `face_check`).
 */
export type VerificationMethod = Method | (string & {});
export type Outcome = 'approved' | 'failed' | 'cancelled';
export type RequestStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'expired';
/** Why a request failed: `claims_missing` and `provider_error` come from identity providers (design.md §12). */
export type FailReason = 'failed' | 'cancelled' | 'claims_missing' | 'provider_error';

// ---- POST /api/w/verify-request ------------------------------------------------------------

/**
 * The loader's attributes as `HTMLElement.dataset` names them (`successPath` for
 * `data-success-path`), docs/embedding.md's table (scripts/docs.test.ts keeps the two equal).
 * The service names the nearest of them for one it does not know (docs/embedding.md#warnings).
 */
export const LOADER_ATTRIBUTES = [
  'partnerId',
  'sessionToken',
  'successPath',
  'scopes',
  'locale',
  'theme',
  'accent',
  'container',
  'debug',
  'clientProofMode',
  'serverVerify',
  'serverVerifyEndpoint',
  'serverVerifyTimeout',
  'onError',
  'onSuccess',
  'onState',
  'state',
  'layout',
  'size',
  'render',
  'redemptionContext',
] as const;

/** What the loader adds to its first request so that the service can warn about its attributes. */
export interface LoaderDiagnosis {
  /** the names of the script tag's `data-*` attributes (and `SVC.render` options), as `dataset` spells them */
  attributes?: string[];
  /** `data-locale` as written (`locale` is what the loader resolved it to) */
  locale_tag?: string;
}

export interface StandardVerifyRequestBody extends LoaderDiagnosis {
  partner_id: string;
  scopes?: Scope[];
  client_proof_mode?: boolean;
  locale?: Locale;
}

export interface BlindVerifyRequestBody extends LoaderDiagnosis {
  session_token: string;
  client_proof_mode?: boolean;
  locale?: Locale;
}

/**
 * The warnings the service found in a {@link LoaderDiagnosis}, one console line each
 * (docs/embedding.md#warnings): on the 201 answer, and on an error answer beside its code.
 */
export interface LoaderWarnings {
  warnings?: string[];
}

export interface VerifyRequestCreated extends LoaderWarnings {
  request_id: string;
  poll_token: string;
  /** `{app_url}/m/v/<request_id>#h=<handoff_token>`; the QR encodes the same URL. */
  deep_link: string;
  /** ms since epoch */
  expires_at: number;
  poll_after_ms: number;
  /** true when the service runs in sandbox mode: the widget shows its "test mode" mark */
  sandbox?: boolean;
  /** the deep link's QR code, precomputed (see qr.ts); optional for clients, always sent */
  qr?: QrModules;
  /**
   * design.md §11, §13, when the EUDI wallet path is offered: the `av://` link for exactly [isAdult],
   * `openid4vp://` otherwise (the QR then encodes it, see qr)
   */
  wallet_link?: string;
  /** design.md §11: the org-iso-mdoc request alone, for widgets that know nothing else */
  dc_request?: DcRequest;
  /** design.md §13: what the page hands to `navigator.credentials.get({ digital: { requests: dc_requests } })` */
  dc_requests?: DcApiRequest[];
  /** docs/adult-blind.md#private-attestations: the partner opted in to private attestations (Privacy Pass) */
  attestation?: 'private';
}

/** ISO/IEC 18013-7 Annex C request for the Digital Credentials API (base64url CBOR fields). */
export interface DcRequest {
  protocol: 'org-iso-mdoc';
  data: { deviceRequest: string; encryptionInfo: string };
}

/** A DCQL query (OpenID4VP 1.0 §6), as the wallet requests of design.md §13 and §15 ask it. */
export interface DcqlQuery {
  credentials: {
    id: string;
    /** `dc+sd-jwt` for the SD-JWT VC PID (`pid_sd`, design.md §15), with `meta.vct_values` */
    format: 'mso_mdoc' | 'dc+sd-jwt';
    meta: { doctype_value: string } | { vct_values: string[] };
    /** `id` only with `claim_sets` (design.md §15: `age`, `bd`, `nat`) */
    claims: { id?: string; path: string[] }[];
    /** the claim ids' sets a wallet may answer, the first it can satisfy (the age claim, else the birth date) */
    claim_sets?: string[][];
  }[];
  credential_sets?: { options: string[][] }[];
}

/**
 * OpenID4VP 1.0 over the Digital Credentials API, unsigned, its response encrypted to the
 * ephemeral key in `client_metadata.jwks` (design.md §13).
 */
export interface Oid4vpDcRequest {
  protocol: 'openid4vp-v1-unsigned';
  data: {
    response_type: 'vp_token';
    response_mode: 'dc_api.jwt';
    nonce: string;
    dcql_query: DcqlQuery;
    client_metadata: {
      jwks: { keys: { kty: 'EC'; crv: 'P-256'; x: string; y: string; use: 'enc'; alg: 'ECDH-ES'; kid: string }[] };
      encrypted_response_enc_values_supported: string[];
      vp_formats_supported: {
        mso_mdoc: Record<string, never>;
        'dc+sd-jwt'?: { 'sd-jwt_alg_values': string[]; 'kb-jwt_alg_values': string[] };
      };
    };
  };
}

/**
 * OpenID4VP 1.0 over the Digital Credentials API, signed with the verifier's access certificate
 * (design.md §16): `request` a JWS (`x5c`, client id `x509_hash:…`) over the unsigned request's
 * parameters, `client_id` and `expected_origins` (this page's origin).
 */
export interface Oid4vpSignedDcRequest {
  protocol: 'openid4vp-v1-signed';
  data: { request: string };
}

/**
 * A Digital Credentials API request. Unsigned: Annex C first (Safari, the AV app), then OpenID4VP
 * (Chrome). With an access certificate (design.md §16): signed OpenID4VP, Annex C with readerAuth,
 * then unsigned OpenID4VP.
 */
export type DcApiRequest = DcRequest | Oid4vpSignedDcRequest | Oid4vpDcRequest;

/** The 400 answer of the wallet endpoints (OpenID4VP's error shape, design.md §11). */
export interface WalletResponseError {
  error: 'invalid_request';
  error_description: string;
}

// ---- GET /api/w/verify-status/:requestId?pt=&wait= ----------------------------------------

export type VerifyResult = { grant_code: string } | { attestation: string };

/**
 * docs/adult-blind.md#private-attestations: a completed private ADULT_BLIND request answers the facts proven; the widget then
 * has its blinded token request signed and delivers `{ attestation: "<token>.<metadata>" }`.
 */
export interface PrivateAttestationPending {
  private_attestation: { scope_mask: number };
}

export interface VerifyStatus {
  status: RequestStatus;
  expires_at: number;
  result?: VerifyResult;
  reason?: FailReason;
}

/**
 * What the widget's status route answers: VerifyStatus, or for a private ADULT_BLIND request
 * (docs/adult-blind.md#private-attestations) the facts proven, which the widget turns into `{ attestation }` itself.
 */
export interface WidgetVerifyStatus extends Omit<VerifyStatus, 'result'> {
  result?: VerifyResult | PrivateAttestationPending;
}

/** Longest long poll the server honours, in seconds. */
export const MAX_WAIT_SECONDS = 25;

// ---- Partner variants ------------------------------------------------------------------------

export interface PartnerVerifyRequestBody {
  scopes?: Scope[];
  client_proof_mode?: boolean;
  locale?: Locale;
}

export interface PartnerVerifyRequestCreated {
  request_id: string;
  deep_link: string;
  expires_at: number;
}

// ---- Phone API (design.md §4, §12); the persona picker's bodies are sandbox.ts's ----------------

export interface PhoneOpenBody {
  h: string;
}

/**
 * A way the phone can prove the request (design.md §12), in the order the page offers them: the
 * EUDI wallet on this phone, each identity provider, and in sandbox the persona picker last.
 */
export type PhoneMethod =
  | { id: 'eudi_wallet'; wallet_link: string; dc_request: DcRequest; dc_requests: DcApiRequest[] }
  | { id: `idp_${string}`; name: string; method: string }
  | { id: 'sandbox' };

export interface PhoneOpened {
  scopes: Scope[];
  rail: Rail;
  client_proof_mode: boolean;
  /** STANDARD: the partner's name; ADULT_BLIND: the blind app only, never the partner. */
  audience_label: string;
  /** the language the request was made in (the widget's): the page speaks it (design.md §20) */
  locale: Locale;
  expires_at: number;
  status: RequestStatus;
  /** with status `failed`: why (the page explains a provider's decline or missing claims) */
  reason?: FailReason;
  /** true when the service runs in sandbox mode: the page shows its test-mode mark (always sent, as for verify-request) */
  sandbox?: boolean;
  /** never empty for a request that is still open (a request nobody can prove is refused at creation: NO_METHOD) */
  methods: PhoneMethod[];
}

/**
 * POST /api/m/requests/:requestId/wallet-response: what `navigator.credentials.get` gave the phone
 * page (design.md §11's Digital Credentials API path, with the phone's handoff token).
 */
export interface PhoneWalletResponseBody {
  h: string;
  /** the credential as returned: `{ protocol: 'org-iso-mdoc' | 'openid4vp-v1-unsigned', data: { response } }` */
  credential: unknown;
}

/** Its 200 answer: the request completed, or failed (not adult; the wallet declined: `cancelled`). */
export interface PhoneWalletAnswered {
  status: 'completed' | 'failed';
  reason?: FailReason;
}

/** POST /api/m/requests/:requestId/providers/:providerId/start: where to send the visitor. */
export interface ProviderLoginStarted {
  authorization_url: string;
}

/**
 * Where `{app_url}/m/callback` sends the visitor back: `/m/v/<request_id>?login=<result>`. A
 * display hint only; the page reads the request's status with its handoff token.
 */
export type LoginResult = 'approved' | 'failed' | 'refused' | 'finished';

/**
 * The credentials client proof mode accepts (design.md §11, §13, §15), by the DCQL query id that keys
 * each one's presentation: the EU proof of age, the EU PID (mdoc), the ISO mobile driving licence,
 * the EU PID as an SD-JWT VC.
 */
export const WALLET_CREDENTIAL_OF_QUERY_ID = { proof_of_age: 'av', pid: 'pid', mdl: 'mdl', pid_sd: 'pid_sd' } as const;
export type WalletCredential = (typeof WALLET_CREDENTIAL_OF_QUERY_ID)[keyof typeof WALLET_CREDENTIAL_OF_QUERY_ID];

// ---- Partner API ---------------------------------------------------------------------------------

interface JsonTypes {
  boolean: boolean;
  string: string;
  integer: number;
}

/** The attributes scopes fill, each present only when its scope was requested (scopes.ts SCOPE_FIELD). */
export type ScopeAttributes = { [F in AttributeField]?: JsonTypes[(typeof ATTRIBUTE_TYPE)[F]] };

export interface Attributes extends ScopeAttributes {
  verification_method?: VerificationMethod;
  verified_at?: number;
}

export interface ExchangeResponse {
  pass_token: string;
  expires_in: number;
  token_type: 'Bearer';
  age_over_18?: boolean;
  scopes: Scope[];
  attributes: Attributes;
}

export type PassScope = 'age_verification' | 'identity_verification' | 'multi_scope_verification';

export interface IntrospectActive {
  active: true;
  scope: PassScope;
  exp: number;
  iat: number;
  sub: string;
  attributes: Attributes;
  scopes_verified: Scope[];
  proof_metadata: { proof_count: number; total_generation_time_ms: number };
}

export type IntrospectResponse = IntrospectActive | { active: false };

// ---- Billing (ADULT_BLIND) -------------------------------------------------------------------

export interface BillingSessionBody {
  origin: string;
  scopes?: BlindScope[];
}

export interface BillingSessionCreated {
  token: string;
  expires_in: 300;
}

export interface AttestationClaims {
  jti: string;
  iat: number;
  exp: number;
  scope_mask: number;
  app_id: string;
  origin_hash: string;
  nullifier: string;
  aud: 'svc-attestation';
  ver: '1';
}

export interface SessionClaims {
  iss: string;
  aud: 'svc-widget';
  app_id: string;
  origin_hash: string;
  scope_mask: number;
  iat: number;
  exp: number;
  jti: string;
  /** docs/adult-blind.md#private-attestations: present, and `private`, only for a partner that opted in to private attestations */
  attestation?: 'private';
}

/** A grant code's lifetime (5 minutes: docs/partner-api.md); also LIMITS.grantTtlMs. */
export const GRANT_TTL_MS = 5 * 60_000;
/** A verification request's lifetime (docs/sandbox-flow.md#lifetimes-and-limits); also LIMITS.requestTtlMs. */
export const REQUEST_TTL_MS = 300_000;

/**
 * Time and size constants, in the unit their name says, as the docs give them to partners
 * (docs/partner-api.md: grant, pass token, clock skew, body size; docs/adult-blind.md: session
 * token, attestation, key-set cache; docs/sandbox-flow.md#lifetimes-and-limits: requests;
 * docs/embedding.md: `data-server-verify-timeout`). The widget
 * imports the two it needs one by one: an object is carried whole into a bundle.
 */
export const LIMITS = {
  grantTtlMs: GRANT_TTL_MS,
  passTokenTtlSeconds: 14_400,
  sessionTokenTtlSeconds: 300,
  attestationTtlSeconds: 300,
  skewSeconds: 300,
  jwksMaxAgeSeconds: 3600,
  requestTtlMs: REQUEST_TTL_MS,
  serverVerifyTimeoutSeconds: 30,
  bodyLimitBytes: 16 * 1024,
} as const;
