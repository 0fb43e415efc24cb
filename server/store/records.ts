/**
 * The records the store keeps (store.ts holds the interface and its prose contract), by kind:
 * partners, requests and what their results become (grants, pass tokens, exchange replays), the
 * EUDI wallet request kept with a request, signing keys, identity providers and login states,
 * counters. Every type the store keeps lives here, so the store imports none from wallet/ or
 * crypto/; those import these (or match them in shape).
 */
import type {
  Attributes,
  FailReason,
  Locale,
  Oid4vpDcRequest,
  Rail,
  RequestStatus,
  VerificationMethod,
} from '../../src/protocol/wire.ts';
import type { Scope } from '../../src/protocol/scopes.ts';

export interface PartnerRecord {
  id: string;
  /** base64 of the raw HMAC key bytes, as the partner was given it */
  secret: string;
  name: string;
  /** registered origin, e.g. "http://localhost:8788" */
  domain: string;
  rail: Rail;
  blindAppId: string | null;
  /** null: every scope the rail allows */
  allowedScopes: Scope[] | null;
  createdAt: number;
  /**
   * After `svc partners rotate-secret`: the secret it replaced, still accepted until
   * `previousSecretUntil` so the partner can redeploy without downtime. Absent or null: none.
   */
  previousSecret?: string | null;
  previousSecretUntil?: number | null;
  /** Set by `svc partners disable`: from then on every signed call answers INVALID_PARTNER. */
  disabledAt?: number | null;
  /**
   * ADULT_BLIND: `private` when the partner opted in to private attestations (docs/adult-blind.md#private-attestations).
   * Absent or null: the JWS attestation (docs/adult-blind.md#what-an-attestation-is).
   */
  attestation?: 'private' | null;
  /**
   * The wallet credential format its requests ask (design.md §19), within the operator's
   * `SVC_WALLET_FORMATS` (`svc partners update --wallet-formats`). Absent or null: the operator's.
   */
  walletFormats?: 'mso_mdoc' | 'dc+sd-jwt' | null;
}

export interface VerifyRequestRecord {
  id: string;
  rail: Rail;
  /** STANDARD only; always null on ADULT_BLIND (the verifier path never learns the partner) */
  partnerId: string | null;
  /** ADULT_BLIND only: blind app id and origin hash from the session token */
  appId: string | null;
  originHash: string | null;
  /** session token jti (ADULT_BLIND), so one token makes at most one live request */
  sessionJti: string | null;
  scopes: Scope[];
  clientProofMode: boolean;
  locale: Locale;
  /** what the phone shows: the partner's name (STANDARD) or the blind app id (ADULT_BLIND) */
  audienceLabel: string;
  pollTokenDigest: string;
  handoffTokenDigest: string;
  status: RequestStatus;
  reason: FailReason | null;
  method: VerificationMethod | null;
  /** the grant code or attestation, sealed to resultPublicKey (crypto/result-box.ts) */
  sealedResult: string | null;
  /** bumped by every update; long polls wait for it to move */
  version: number;
  createdAt: number;
  /** pending/in_progress: end of the request's life; completed: when its result goes */
  expiresAt: number;
  /** who created it: the loader (result opened by the poll token) or a signed partner call (by the partner) */
  channel: 'widget' | 'partner';
  /**
   * The logical end of a pending/in_progress request. The row stays a little longer (expiresAt =
   * deadlineAt + grace) so that a late poll reads "expired" rather than "unknown".
   */
  deadlineAt: number;
  /** when the phone opened it (pending → in_progress); null before */
  openedAt: number | null;
  /** X25519 public key the result is sealed to on completion (crypto/result-box.ts) */
  resultPublicKey: string;
  /** its private half, sealed with the poll token or the partner's result-reader key: the store alone can't open a result */
  resultKeySealed: string;
  /**
   * The EUDI wallet request (design.md §11, §13) when the wallet path was offered: what a wallet's
   * answer is checked against. `dc.recipientPrivateKey` and `oid4vpDc.privateKey` are stored sealed
   * (domain/wallet-offer.ts). Absent or null: not offered. Written once at creation, never patched.
   */
  wallet?: WalletRequestMaterial | null;
  /**
   * ADULT_BLIND with private attestations (docs/adult-blind.md#private-attestations): true when the session token said so.
   * Absent: false. Written once at creation.
   */
  privateAttestation?: boolean;
  /** when the service signed the request's one blinded token request; absent or null: not yet */
  privateIssuedAt?: number | null;
  /**
   * The digest (crypto/tokens' digest) of the `response_code` the answer to a valid wallet post
   * carried in its `redirect_uri` (design.md §19); null once the done view used it. Absent: none.
   */
  responseCodeDigest?: string | null;
}

/**
 * The EUDI wallet request as the store keeps it (design.md §11, §13), JSON: everything a wallet's
 * answer is checked against. The wallet path (wallet/request/wallet-request.ts) makes it; the store never reads
 * into it. `dc.recipientPrivateKey`, `oid4vpDc.privateKey` and `signed.privateKey` are secret;
 * nonce and state travel in the requests anyway. A v1 material (before wallet scopes other than
 * isAdult) asked [isAdult] and had no `oid4vpDc`.
 */
export interface WalletRequestMaterial {
  v: 1 | 2;
  responseUri: string;
  nonce: string;
  state: string;
  /** the scopes the wallet is asked to prove (v1: absent, [isAdult]); wallet/formats/credentials.ts WalletScope */
  scopes?: ('isAdult' | 'isFrench' | 'isEU')[];
  /** the Annex C request (org-iso-mdoc) */
  dc: DcRequestMaterial;
  /** the OpenID4VP request over the Digital Credentials API (openid4vp-v1-unsigned) */
  oid4vpDc?: Oid4vpDcMaterial;
  /**
   * the signed request object behind an `openid4vp://` link, and its answer key (`privateKey`
   * secret), when the service holds an access certificate (docs/design.md §16)
   */
  signed?: SignedRequestMaterial;
  /**
   * the Digital Credentials API requests signed for each page origin (the partner page's, the
   * phone page's), when the service holds an access certificate (docs/design.md §16)
   */
  signedDc?: SignedDcRequests[];
  /** the one credential format asked (design.md §19); absent: every format */
  formats?: 'mso_mdoc' | 'dc+sd-jwt';
}

/** The verifier's public encryption key as client_metadata.jwks carries it; `kid` its RFC 7638 thumbprint. */
type EncryptionJwk = Oid4vpDcRequest['data']['client_metadata']['jwks']['keys'][number];

/** The Annex C request (wallet/request/dc-request.ts): base64url CBOR, and the HPKE recipient's key. */
export interface DcRequestMaterial {
  deviceRequest: string;
  encryptionInfo: string;
  /** base64url of the HPKE recipient's private scalar */
  recipientPrivateKey: string;
}

/** What opens an openid4vp-v1-unsigned answer (wallet/request/oid4vp-dc-request.ts): `privateKey` is secret. */
export interface Oid4vpDcMaterial {
  nonce: string;
  publicJwk: EncryptionJwk;
  /** base64url of the private scalar `d` */
  privateKey: string;
}

/** A signed request object (wallet/request/request-object.ts) and its answer key. */
export interface SignedRequestMaterial {
  /** `x509_hash:<…>` of the certificate that signed it: the transcript's client_id */
  clientId: string;
  /** the request object (a JWS, public) served at request_uri */
  requestObject: string;
  /** the answer's encryption key, as client_metadata.jwks carries it */
  publicJwk: EncryptionJwk;
  /** base64url of its private scalar `d` */
  privateKey: string;
}

/** The Digital Credentials API requests signed for one page origin (wallet/request/signed-dc-request.ts). */
export interface SignedDcRequests {
  /** the page the requests are for: `expected_origins`, and the origin readerAuth's transcript binds */
  origin: string;
  /** openid4vp-v1-signed: the request object (a compact JWS) */
  request: string;
  /** org-iso-mdoc: base64url CBOR of the DeviceRequest whose DocRequests carry readerAuth */
  deviceRequest: string;
}

export type VerifyRequestPatch = Partial<
  Pick<
    VerifyRequestRecord,
    | 'status'
    | 'reason'
    | 'method'
    | 'sealedResult'
    | 'expiresAt'
    | 'openedAt'
    | 'privateIssuedAt'
    | 'responseCodeDigest'
  >
>;

export interface GrantRecord {
  digest: string;
  partnerId: string;
  requestId: string;
  scopes: Scope[];
  attributes: Attributes;
  method: VerificationMethod;
  verifiedAt: number;
  /** ms the phone-side proof took, reported as proof_metadata.total_generation_time_ms */
  generationTimeMs: number;
  expiresAt: number;
}

export interface PassTokenRecord {
  digest: string;
  partnerId: string;
  requestId: string;
  scopes: Scope[];
  attributes: Attributes;
  method: VerificationMethod;
  issuedAt: number;
  expiresAt: number;
  generationTimeMs: number;
}

/**
 * What a signed partner call reads or takes in the same atomic step as its nonce (design.md §23,
 * `Store.rememberNonceAnd`): an introspection the pass token it names; an exchange the grant it
 * names, unless a live exchange replay under its Idempotency-Key answers first.
 */
export type NonceRead =
  | { kind: 'pass'; digest: string }
  | {
      kind: 'grant';
      digest: string;
      replay: { partnerId: string; idempotencyKey: string } | null;
      /**
       * The pass token record to store for the grant once taken (null: none, e.g. another
       * partner's grant): pure and synchronous; written in the same transaction on SQLite, right
       * after the script on Redis. Absent: the caller stores it.
       */
      issue?: (grant: GrantRecord) => PassTokenRecord | null;
      /**
       * `issue` as data, for a store that builds the record inside its own step (Redis: the
       * script that takes the grant writes the pass token too, so an exchange is one round trip,
       * design.md §23). It must describe what `issue` returns: `passTokenRecordOf` (domain/pass-tokens.ts)
       * of the grant, when the grant is `partnerId`'s, live at `issuedAt` and verified at or after
       * `verifiedSince`, with this `digest` and `expiresAt`; null otherwise. A store may ignore it and call `issue`.
       */
      issueAs?: {
        partnerId: string;
        digest: string;
        issuedAt: number;
        expiresAt: number;
        /** nothing is issued for a grant verified before it (`restored_at`, store/restored.ts) */
        verifiedSince?: number;
      };
      /**
       * With `replay`: the replay record's `sealedResponse` (the new pass token sealed with the
       * grant code, domain/exchange.ts). When the store issues the pass token (`issued`), it stores
       * the replay record too, in the same step (`replayKeptBy`, store.ts): `{ ...replay, grantDigest: digest, sealedResponse,
       * expiresAt: the grant's }`, as `putExchangeReplay` would (no live one exists: it was looked
       * for first). So an exchange with an Idempotency-Key is one round trip as well (design.md §23).
       */
      replaySealed?: string;
    };

/** What `Store.rememberNonceAnd` found; when `fresh` is false nothing was read, taken or changed. */
export interface NonceReadResult {
  fresh: boolean;
  /** kind 'pass': the token's record; null when unknown or expired */
  pass: PassTokenRecord | null;
  /** kind 'grant': the grant, now used; null when unknown, used, expired or not taken for a replay */
  grant: GrantRecord | null;
  /** kind 'grant' with an Idempotency-Key: the live replay found under it (the grant is then not taken) */
  replay: ExchangeReplayRecord | null;
  /** kind 'grant' with `issue`: the pass token record stored for the grant taken */
  issued: PassTokenRecord | null;
}

/** A replayable exchange answer, sealed with the grant code (which the store does not hold). */
export interface ExchangeReplayRecord {
  partnerId: string;
  idempotencyKey: string;
  grantDigest: string;
  /**
   * Sealed with the grant code (crypto/seal.ts): the pass token issued, whose record rebuilds the
   * answer; or, in a record written before the store wrote replays in the nonce's step, the
   * answer's JSON itself (domain/exchange.ts reads both).
   */
  sealedResponse: string;
  expiresAt: number;
}

/** private-attestation: a key set of RSA-2048 keys, one per scope mask (docs/adult-blind.md#private-attestations) */
export type KeyPurpose = 'attestation' | 'session' | 'private-attestation';
/** next: announced, published; current: signs; retired: published until dropAfter, then gone */
type KeyState = 'next' | 'current' | 'retired';

export interface SigningKeyRecord {
  kid: string;
  purpose: KeyPurpose;
  state: KeyState;
  /** private JWK as JSON text; never logged, never served */
  privateJwk: string;
  /** public JWK as JSON text */
  publicJwk: string;
  createdAt: number;
  /** retired keys: when they may be dropped (last attestation expiry + cache max-age) */
  dropAfter: number | null;
}

export type ProviderClientAuth = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** An identity provider the service is an OpenID Connect relying party of (design.md §12). */
export interface ProviderRecord {
  /** `idp_` + 16 random bytes, base64url (the sandbox fixture is `idp_example`) */
  id: string;
  /** exactly as the provider's discovery document spells it: https, or http on a loopback host */
  issuer: string;
  clientId: string;
  clientAuth: ProviderClientAuth;
  /** the client secret, or for private_key_jwt the private key as JWK JSON text; sealed at rest */
  credential: string;
  /** shown to the visitor */
  name: string;
  /** the verification_method it yields, e.g. `face_check` */
  method: string;
  /** the scopes it can prove */
  proves: Scope[];
  /** `svc providers disable` sets it false: no longer offered, and a flow can no longer start with it */
  enabled: boolean;
  createdAt: number;
}

/**
 * One authorization code flow in flight (design.md §12): kept with the request, the provider and
 * the PKCE verifier, taken once by the callback, until the request's deadline.
 */
export interface LoginStateRecord {
  /** SHA-256 digest of the `state` value (`digestToken`): the state itself is never stored */
  digest: string;
  requestId: string;
  providerId: string;
  /** the PKCE code_verifier; sealed at rest */
  codeVerifier: string;
  /** the OpenID Connect nonce; sealed at rest */
  nonce: string;
  /**
   * SHA-256 digest (`digestToken`) of the login cookie the start set in the phone's browser
   * (docs/providers.md, "One browser"): the callback completes only in that browser
   */
  browserDigest: string;
  /** the request's deadline */
  expiresAt: number;
}

export interface CounterHit {
  /** hits in the current window, this one included */
  count: number;
  /** ms since epoch when the window resets */
  resetAt: number;
}
