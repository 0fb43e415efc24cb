/**
 * The SD-JWT VC PID presentation (design.md §15): `<issuer JWT>~<disclosure>~…~<KB-JWT>` (RFC 9901
 * compact form), verified with @sd-jwt/sd-jwt-vc where it does the job (parsing, disclosure
 * digests, issuer and KB-JWT signatures through our callbacks, nonce, sd_hash, the issuer JWT's
 * iat/nbf/exp) and by us where it does not (the gaps below; 17–19 in sd-jwt-disclosures.ts, 20
 * in trust/status-list.ts): `typ`, ES256 only, `x5c` to the wallet trust bundle, `vct`, each
 * digest found once and each disclosure referenced once, the KB-JWT's `aud` and `iat`.
 *
 * What leaves this module: the facts asked for (`age_over_18`, `nationalities`), never the birth
 * date nor a claim not asked, and the `status.status_list` reference for trust/status-list.ts. Refusals
 * carry a check and a fixed phrase (`SdJwtProblem`), never credential text.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 15. The issuer and KB-JWT verifier callbacks receive the signing input and the signature only:
 *    the header's `alg` is never looked at (`alg: none`, HS256 reach the callback as any other)
 *    → sd-jwt.ts refuses anything but ES256 on both JWTs before the library runs, and verifies
 *    with node:crypto over P-256 only.
 * 16. `Jwt.verify` compares `iat`/`nbf`/`exp` with the clock only when they are truthy and never
 *    checks that they are numbers (a string `exp` passes) → sd-jwt.ts requires numbers.
 * 21. `KBJwt.verifyKB` checks `typ`, the signature, the nonce and that `iat`, `aud` and `sd_hash`
 *    are present, but neither the audience nor the age of `iat`; verification is skipped
 *    altogether when no nonce is passed → sd-jwt.ts always passes the nonce, requires a KB-JWT and
 *    compares `aud` and `iat` (±5 min) itself.
 * 22. `SDJwtVcInstance.verify` checks neither the header's `typ` (`dc+sd-jwt`) nor `vct` (only
 *    through type metadata fetched over the network) → sd-jwt.ts checks both.
 */
import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { ADULT_AGE, ageOn, parseCivilDate, toAlpha3 } from '../../rules/facts.ts';
import { JWT_SKEW_SECONDS } from '../profile.ts';
import type { X509Certificate } from '../trust/certificates.ts';
import type { CertificateDateProblem } from '../trust/certificate-dates.ts';
import type { ChainProblem } from '../trust/chain.ts';
import { type IssuerKeyResolver, resolveX5cKey, verifyEs256 } from '../trust/jwt-issuer.ts';
import type { StatusReference } from '../trust/status-list.ts';
import { checkDisclosureReferences, type DisclosureProblem, type DisclosureView } from './sd-jwt-disclosures.ts';

/** The PID's SD-JWT VC type, and the prefix of the domestic types (design.md §15). */
export const PID_VCT = 'urn:eudi:pid:1';
export const PID_VCT_PREFIX = 'urn:eudi:pid:';

/** A presentation larger than this is refused before it is parsed. */
export const MAX_PRESENTATION_CHARS = 64 * 1024;

/** `_sd_alg` values accepted (IANA hash names); absent means sha-256 (RFC 9901 §4.1.1). */
const SD_ALGS: readonly string[] = ['sha-256', 'sha-384', 'sha-512'];

/** Which check refused, in the spirit of answer/verdict.ts's WALLET_CHECKS. */
export type SdJwtCheck =
  | 'presentation'
  | 'trust_chain'
  | 'certificate_validity'
  | 'issuer_signature'
  | 'credential_type'
  | 'credential_validity'
  | 'digests'
  | 'key_binding'
  | 'elements';

/** Why: fixed phrases only. */
export type SdJwtProblem =
  | 'the presentation is not a compact SD-JWT'
  | 'the presentation is too large'
  | 'the key binding JWT is missing'
  | 'the issuer JWT typ is not dc+sd-jwt'
  | 'the issuer JWT is not signed with ES256'
  | 'the issuer JWT has no x5c certificate chain'
  | 'the issuer certificate key is not a P-256 key'
  | 'the issuer signature does not verify'
  | 'the issuer JWT _sd_alg is not supported'
  | 'the issuer JWT iat, nbf or exp is not a number'
  | 'the issuer JWT is not valid yet'
  | 'the issuer JWT has expired'
  | 'the vct is not the EU PID'
  | 'the credential has no P-256 cnf.jwk holder key'
  | 'the status claim is malformed'
  | 'the key binding JWT typ is not kb+jwt'
  | 'the key binding JWT is not signed with ES256'
  | 'the key binding JWT is not signed by the cnf key'
  | 'the key binding JWT is for another nonce'
  | 'the key binding JWT is for another audience'
  | 'the key binding JWT iat is not within 5 minutes of now'
  | 'the key binding JWT sd_hash does not match the presentation'
  | 'the library could not evaluate the presentation'
  | 'neither age_equal_or_over.18 nor birthdate is disclosed'
  | 'age_equal_or_over.18 is not a boolean'
  | 'age_equal_or_over.18 contradicts the birthdate'
  | 'birthdate is not a YYYY-MM-DD date'
  | 'nationalities is not disclosed'
  | 'nationalities is not a list of alpha-2 codes'
  | DisclosureProblem
  | ChainProblem
  | CertificateDateProblem;

export type SdJwtRefusal = { ok: false; check: SdJwtCheck; detail: SdJwtProblem };

export interface PresentationCheck {
  resolveIssuerKey: IssuerKeyResolver;
  /** the request's nonce */
  nonce: string;
  /** the client id (cross-device) or `origin:<page origin>` (Digital Credentials API) */
  audience: string;
  /** ms since the epoch */
  now: number;
}

/** The Processed SD-JWT Payload (RFC 9901 §7.1): issuer claims with the disclosed ones in place. */
export type ProcessedPayload = Record<string, unknown>;

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const refuse = (check: SdJwtCheck, detail: SdJwtProblem): SdJwtRefusal => ({ ok: false, check, detail });

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function isP256(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
}

function decodeJsonPart(part: string | undefined): JsonObject | null {
  if (part === undefined || !BASE64URL.test(part)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function holderKeyOf(payload: JsonObject): KeyObject | null {
  const jwk = isObject(payload.cnf) ? payload.cnf.jwk : undefined;
  if (!isObject(jwk) || jwk.kty !== 'EC' || jwk.crv !== 'P-256') return null;
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return null;
  try {
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
    return isP256(key) ? key : null;
  } catch {
    return null;
  }
}

const isNumeric = (value: unknown): boolean =>
  value === undefined || (typeof value === 'number' && Number.isFinite(value));

/**
 * The core verification through @sd-jwt: SDJwtVcInstance's own `verify` would fetch status lists
 * itself (gap 20), so the SD-JWT verify of its parent class runs, reached through the prototype.
 */
const coreVerify = (Object.getPrototypeOf(SDJwtVcInstance.prototype) as SDJwtVcInstance).verify;

/**
 * Verifies an SD-JWT+KB presentation (RFC 9901 §7.1–7.3) under the key `resolveIssuerKey` gives:
 * the compact form, ES256 on both JWTs, the issuer signature and iat/nbf/exp (±5 min), `_sd_alg`,
 * every disclosure's digest referenced exactly once and no digest twice, a `cnf.jwk` P-256 holder
 * key, and the KB-JWT (`kb+jwt`, signed by `cnf.jwk`, `nonce`, `aud`, `iat` within 5 min,
 * `sd_hash`). Returns the Processed SD-JWT Payload and the issuer JWT header.
 *
 * @example const result = await verifySdJwtPresentation(vp, { resolveIssuerKey, nonce, audience, now })
 */
export async function verifySdJwtPresentation(
  presentation: string,
  check: PresentationCheck,
): Promise<{ ok: true; header: JsonObject; payload: ProcessedPayload } | SdJwtRefusal> {
  if (presentation.length > MAX_PRESENTATION_CHARS) return refuse('presentation', 'the presentation is too large');
  const parts = presentation.split('~');
  const [issuerJwt, ...rest] = parts;
  const kbJwt = rest.pop();
  if (!issuerJwt || kbJwt === undefined || rest.some((d) => !BASE64URL.test(d)))
    return refuse('presentation', 'the presentation is not a compact SD-JWT');
  if (kbJwt === '') return refuse('key_binding', 'the key binding JWT is missing');
  const [h, p, s, extra] = issuerJwt.split('.');
  const header = decodeJsonPart(h);
  const payload = decodeJsonPart(p);
  const [kh, kp, ks, kextra] = kbJwt.split('.');
  const kbHeader = decodeJsonPart(kh);
  const kbPayload = decodeJsonPart(kp);
  if (!header || !payload || extra !== undefined || !kbHeader || !kbPayload || kextra !== undefined)
    return refuse('presentation', 'the presentation is not a compact SD-JWT');
  // Gap 15: the library hands our verifier the signing input only; the algorithm is ours to pin.
  if (header.alg !== 'ES256') return refuse('issuer_signature', 'the issuer JWT is not signed with ES256');
  if (!s || !ks) return refuse('presentation', 'the presentation is not a compact SD-JWT');
  const issuer = check.resolveIssuerKey(header);
  if ('ok' in issuer) return issuer;
  if (!isP256(issuer.key)) return refuse('issuer_signature', 'the issuer certificate key is not a P-256 key');
  const sdAlg = payload._sd_alg ?? 'sha-256';
  if (typeof sdAlg !== 'string' || !SD_ALGS.includes(sdAlg))
    return refuse('digests', 'the issuer JWT _sd_alg is not supported');
  // Gap 16: the library compares iat/nbf/exp only when truthy and never checks they are numbers.
  if (!isNumeric(payload.iat) || !isNumeric(payload.nbf) || !isNumeric(payload.exp))
    return refuse('credential_validity', 'the issuer JWT iat, nbf or exp is not a number');
  const holderKey = holderKeyOf(payload);
  if (!holderKey) return refuse('key_binding', 'the credential has no P-256 cnf.jwk holder key');
  if (kbHeader.typ !== 'kb+jwt') return refuse('key_binding', 'the key binding JWT typ is not kb+jwt');
  if (kbHeader.alg !== 'ES256') return refuse('key_binding', 'the key binding JWT is not signed with ES256');

  let issuerSignatureFailed = false;
  let kbSignatureFailed = false;
  const instance = new SDJwtVcInstance({
    hasher: digest,
    verifier: (data: string, signature: string) => {
      issuerSignatureFailed = !verifyEs256(issuer.key, data, signature);
      return !issuerSignatureFailed;
    },
    kbVerifier: (data: string, signature: string) => {
      kbSignatureFailed = !verifyEs256(holderKey, data, signature);
      return !kbSignatureFailed;
    },
  });
  let verified: { payload: unknown; kb?: { payload: unknown } | undefined };
  try {
    verified = await coreVerify.call(instance, presentation, {
      keyBindingNonce: check.nonce,
      currentDate: Math.floor(check.now / 1000),
      skewSeconds: JWT_SKEW_SECONDS,
    });
  } catch (error) {
    return describeLibraryFailure(error, issuerSignatureFailed, kbSignatureFailed);
  }

  // Gaps 17–19: each disclosure referenced once, no digest twice, no claim overwritten.
  const disclosures: DisclosureView[] = [];
  for (const encoded of rest) {
    const view = readDisclosure(encoded, sdAlg);
    if (!view) return refuse('presentation', 'the presentation is not a compact SD-JWT');
    disclosures.push(view);
  }
  const references = checkDisclosureReferences(payload, disclosures);
  if (references) return refuse('digests', references);

  // Gap 21: the library checks neither the KB-JWT's audience nor its age.
  if (kbPayload.aud !== check.audience) return refuse('key_binding', 'the key binding JWT is for another audience');
  const iat = kbPayload.iat;
  if (typeof iat !== 'number' || Math.abs(iat - check.now / 1000) > JWT_SKEW_SECONDS)
    return refuse('key_binding', 'the key binding JWT iat is not within 5 minutes of now');
  if (!isObject(verified.payload)) return refuse('presentation', 'the library could not evaluate the presentation');
  return { ok: true, header, payload: verified.payload };
}

/** The library's failures in our words (its messages are not passed on). */
function describeLibraryFailure(error: unknown, issuerFailed: boolean, kbFailed: boolean): SdJwtRefusal {
  const message = error instanceof Error ? error.message : '';
  if (issuerFailed) return refuse('issuer_signature', 'the issuer signature does not verify');
  if (kbFailed) return refuse('key_binding', 'the key binding JWT is not signed by the cnf key');
  if (message.includes('is expired')) return refuse('credential_validity', 'the issuer JWT has expired');
  if (message.includes('not yet valid')) return refuse('credential_validity', 'the issuer JWT is not valid yet');
  if (message.includes('Invalid Nonce')) return refuse('key_binding', 'the key binding JWT is for another nonce');
  if (message.includes('sd_hash'))
    return refuse('key_binding', 'the key binding JWT sd_hash does not match the presentation');
  return refuse('presentation', 'the library could not evaluate the presentation');
}

/** A disclosure as the reference check needs it: its digest under `_sd_alg`, its arity, name, value. */
function readDisclosure(encoded: string, sdAlg: string): DisclosureView | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || typeof value[0] !== 'string') return null;
    const hash = Buffer.from(digest(encoded, sdAlg)).toString('base64url');
    if (value.length === 3 && typeof value[1] === 'string')
      return { digest: hash, name: value[1], value: value[2] as unknown };
    if (value.length === 2) return { digest: hash, name: null, value: value[1] as unknown };
    return null;
  } catch {
    return null;
  }
}

/** Which facts the request asks of the credential. */
export interface AskedFacts {
  /** isAdult: `age_equal_or_over.18`, else `birthdate` */
  age: boolean;
  /** isFrench / isEU: `nationalities` */
  nationality: boolean;
}

export type { StatusReference };

/** Only the facts asked: never the birth date, never a claim not asked. */
export interface PidFacts {
  age_over_18?: boolean;
  /** ISO 3166-1 alpha-2 */
  nationalities?: string[];
}

export type PidVerdict = { ok: true; facts: PidFacts; status: StatusReference | null } | SdJwtRefusal;

export interface PidCheck {
  anchors: readonly X509Certificate[];
  /** keys no certificate of the path may carry (WalletTrust.refusedKeys: production's public keys) */
  refusedKeys?: readonly string[];
  nonce: string;
  audience: string;
  /** ms since the epoch */
  now: number;
  asked: AskedFacts;
}

/**
 * Verifies a PID SD-JWT VC presentation (design.md §15) and reads the facts asked: `typ`
 * `dc+sd-jwt`, `x5c` to the trust bundle, `vct`, then verifySdJwtPresentation's checks. Returns
 * `age_over_18` (from `age_equal_or_over.18`, else from `birthdate` by §12's 18-today rule at
 * `now`; both disclosed must agree) and `nationalities` when asked, and the status list reference
 * when there is one.
 *
 * @example const verdict = await verifyPidSdJwt(vp, { anchors, nonce, audience: clientId, now, asked })
 */
export async function verifyPidSdJwt(presentation: string, check: PidCheck): Promise<PidVerdict> {
  const header = decodeJsonPart(presentation.split('.', 1)[0]);
  if (!header) return refuse('presentation', 'the presentation is not a compact SD-JWT');
  // Gap 22: SDJwtVcInstance neither checks typ nor vct (without type metadata fetching).
  if (header.typ !== 'dc+sd-jwt') return refuse('credential_type', 'the issuer JWT typ is not dc+sd-jwt');
  const result = await verifySdJwtPresentation(presentation, {
    resolveIssuerKey: resolveX5cKey(check.anchors, check.now, check.refusedKeys),
    nonce: check.nonce,
    audience: check.audience,
    now: check.now,
  });
  if (!result.ok) return result;
  const { payload } = result;
  const vct = payload.vct;
  if (
    typeof vct !== 'string' ||
    !(vct === PID_VCT || (vct.startsWith(PID_VCT_PREFIX) && vct.length > PID_VCT_PREFIX.length))
  )
    return refuse('credential_type', 'the vct is not the EU PID');
  const status = readStatus(payload.status);
  if (status === 'malformed') return refuse('elements', 'the status claim is malformed');
  const facts: PidFacts = {};
  if (check.asked.age) {
    const age = readAgeOver18(payload, check.now);
    if (typeof age === 'string') return refuse('elements', age);
    facts.age_over_18 = age;
  }
  if (check.asked.nationality) {
    const nationalities = payload.nationalities;
    if (nationalities === undefined) return refuse('elements', 'nationalities is not disclosed');
    if (
      !Array.isArray(nationalities) ||
      !nationalities.every((c) => typeof c === 'string' && /^[A-Z]{2}$/.test(c) && toAlpha3(c) !== null)
    )
      return refuse('elements', 'nationalities is not a list of alpha-2 codes');
    facts.nationalities = [...(nationalities as string[])];
  }
  return { ok: true, facts, status };
}

/** As rules/facts.ts: the age claim when there is one; with a birth date too, they must agree. */
function readAgeOver18(payload: ProcessedPayload, now: number): boolean | SdJwtProblem {
  const ages = payload.age_equal_or_over;
  const claimed = isObject(ages) ? ages['18'] : undefined;
  if (claimed !== undefined && typeof claimed !== 'boolean') return 'age_equal_or_over.18 is not a boolean';
  const birthdate = payload.birthdate;
  if (birthdate === undefined) return claimed ?? 'neither age_equal_or_over.18 nor birthdate is disclosed';
  const birth = typeof birthdate === 'string' ? parseCivilDate(birthdate) : null;
  if (!birth) return 'birthdate is not a YYYY-MM-DD date';
  const adult = ageOn(birth, now) >= ADULT_AGE;
  if (claimed !== undefined && claimed !== adult) return 'age_equal_or_over.18 contradicts the birthdate';
  return adult;
}

function readStatus(status: unknown): StatusReference | null | 'malformed' {
  if (status === undefined) return null;
  if (!isObject(status)) return 'malformed';
  const list = status.status_list;
  if (list === undefined) return null;
  if (!isObject(list) || typeof list.uri !== 'string' || !Number.isSafeInteger(list.idx) || (list.idx as number) < 0)
    return 'malformed';
  return { idx: list.idx as number, uri: list.uri };
}
