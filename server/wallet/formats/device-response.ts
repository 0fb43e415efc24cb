/**
 * What @owf/mdoc 0.6.0 and @openid4vc/openid4vp 0.4.6 leave out or get wrong for this profile,
 * and the workaround for each, in one place (docs/wallets.md#where-the-libraries-stop). Each gap has a test in
 * library-gaps.test.ts that shows the library's own behaviour next to ours.
 *
 * 1. `issuerAuth` (or `deviceSignature`) carrying COSE tag 18 is rejected: cbor-x turns the tagged
 *    item into a `Sign1` instance while `IssuerSigned`'s schema wants the bare 4-array. ISO 18013-5
 *    shows it untagged, RFC 9052 allows both → `decodeDeviceResponse` untags before the schema.
 * 2. `Verifier.verifyDeviceResponse` compares docTypes only when given a DeviceRequest (and then
 *    only the MSO's) → `checkDocTypes` compares the document's and the MSO's docType with ours.
 * 3. The chain check is the `MdocContext` callback we supply; the one in mdoc-ts's tests checks no
 *    certificate dates when the trusted anchor is the root (it slices the anchor and everything
 *    below it away) → `checkCertificateDates` checks the DS's and the IACA's validity at `now`.
 * 4. There is no ISO 18013-7 Annex C `dcapi` handover: `SessionTranscript` knows the OpenID4VP
 *    ones only, and the `Handover` base class is declared but not exported → `DcapiHandover`
 *    extends it through the prototype of an exported handover.
 * 5. @openid4vc/openid4vp's `createOpenid4vpAuthorizationRequest` refuses an http `response_uri`
 *    (unless its process-global `allowInsecureUrls` is set) and reorders the parameters. The
 *    sandbox runs on http://localhost and design.md §11 fixes the order, so request.ts writes the
 *    link and checks the payload with the library's `validateOpenid4vpAuthorizationRequestPayload`;
 *    the library's parser and resolver read our links back (request.test.ts).
 * 6. @peculiar/x509 1.14.3 (the X.509 library of mdoc-ts's test context) cannot parse the EU
 *    reference CA or its DS certificates (malformed non-critical IssuerAltName) → the verifier
 *    reads certificates with node:crypto (certificates.ts); @peculiar/x509 only makes test ones.
 * 7. `CoseKey.fromJwk` / `CoseKey.jwk` spell P-384 and P-521 as "p-384" / "p-521", so keys on
 *    those curves (allowed for DS and device keys) fail either way → `ecJwkToCoseKey` and
 *    `coseKeyToEcJwk` map curves by their COSE numbers.
 * 8. Device authentication is verified over `payload ?? detachedPayload` (Sign1.toBeSigned,
 *    Mac0.toBeAuthenticated): a `deviceSignature` that brings its own payload is verified over
 *    *that*, and the SessionTranscript the caller passed is never looked at. One presentation
 *    captured for any request or verifier then completes every request (critical; design.md §11). ISO/IEC
 *    18013-5 §9.1.3 makes the DeviceAuthenticationBytes detached → device-auth.ts refuses a
 *    non-nil payload and a `deviceMac` before the library runs, and verifies the signature itself
 *    over the bytes it computes from its own transcript after. Upstream, `DeviceAuth.verify`
 *    should refuse a non-nil payload (CosePayloadMustBeNullError exists and is unused there) and
 *    verify over the detached bytes only; `Sign1.verify` should take the payload to verify as an
 *    argument rather than prefer the embedded one.
 * 9. The MSO's validityInfo is checked as `validFrom - skew ≤ now ≤ validUntil + skew` and `signed`
 *    within the DS certificate's validity widened by the skew: an inverted window (validFrom after
 *    validUntil) with both ends within the skew of now passes, and so does a `signed` in the
 *    future → mso-validity.ts checks the order, `signed ≤ now + skew`, and `signed` within the DS
 *    certificate's own dates (design.md §11).
 * 10. The `check` texts of the verification assessments quote the credential's namespace and
 *    element names verbatim (`The calculated digest for <ns>/<element> attribute …`, `Issuer Auth
 *    must include digests for namespace: <ns>`): logged, an attacker's 6 KB element name is a 6 KB
 *    log line → verify.ts never passes library text on; it maps each failure to a fixed phrase,
 *    naming only the element it asked for (docs/wallets.md#what-leaves-the-verifier).
 * 11. @openid4vc/openid4vp's `parseOpenid4vpAuthorizationResponse` returns the DCQL presentations
 *    keyed by whatever ids the wallet sent, asked for or not, and nothing ties a presentation to
 *    the `doctype_value` of its credential query (with the PID and the mDL, design.md §13, a wallet
 *    could key a PID as `mdl`) → verify.ts takes exactly one id, of a credential the request asked
 *    for, and the docType check (gap 2) compares the document's and the MSO's docType with that
 *    credential's.
 * 12. @owf/mdoc's `DateOnly` (tag 1004, full-date) keeps a `Date` made by `new Date(text)`, not the
 *    text: `2007-02-29` becomes 1 March, `1990-1-5` and `Jan 5 1990` are read as dates, and the
 *    tag over a number becomes a date too. And `IssuerSignedItem.isValid` digests a re-encoding of
 *    the decoded item, not the IssuerSignedItemBytes received, so such a value, re-encoded in its
 *    normalised form, fails the digest check (refused as `digests`, the request still waiting) →
 *    full-date.ts reads what passed strictly (`YYYY-MM-DD`, a real civil date; a bare text string
 *    the same way; a tdate only at midnight UTC), never trusting the Date alone (design.md §15).
 *    Upstream: DateOnly should keep its text and refuse what RFC 8943 does not allow, and digests
 *    should be computed over the bytes received.
 * 13. `ItemsRequest.create` takes `docType` and `nameSpaces` only: no `requestInfo`, where ISO/IEC
 *    18013-5 second edition puts `alternativeDataElements` (birth_date for age_over_18, design.md
 *    §15) → dc-api.ts builds the ItemsRequest map itself and reads it through
 *    `ItemsRequest.fromEncodedStructure`, whose schema keeps additional keys.
 * 14. @openid4vc/openid4vp 0.4.6 checks a DCQL query's shape, `claim_sets` included, but cannot see
 *    inside an mdoc presentation, so nothing says a presentation satisfies one of the claim sets
 *    → readFacts (credentials.ts) reads only the elements of the sets asked, and a scope left
 *    unproven (neither age_over_18 nor birth_date disclosed) fails the request as `claims_missing`.
 *
 * @sd-jwt/sd-jwt-vc 0.19.0 (with @sd-jwt/core, @sd-jwt/crypto-nodejs and @sd-jwt/jwt-status-list
 * 0.19.0) for the SD-JWT VC PID and status lists (design.md §15), used by sd-jwt.ts and
 * status-list.ts; the tests are in sd-jwt.test.ts and status-list.test.ts:
 *
 * 15. The issuer and KB-JWT verifier callbacks receive the signing input and the signature only:
 *    the header's `alg` is never looked at (`alg: none`, HS256 reach the callback as any other)
 *    → sd-jwt.ts refuses anything but ES256 on both JWTs before the library runs, and verifies
 *    with node:crypto over P-256 only.
 * 16. `Jwt.verify` compares `iat`/`nbf`/`exp` with the clock only when they are truthy and never
 *    checks that they are numbers (a string `exp` passes) → sd-jwt.ts requires numbers.
 * 17. Disclosures whose digest the issuer JWT does not list are silently dropped (RFC 9901 §7.1
 *    step 5 rejects them): a changed disclosure verifies, minus the changed claim → every
 *    disclosure must be referenced (`checkDisclosureReferences`).
 * 18. A digest listed twice in `_sd` (or in two `...` entries) is accepted, the claim appearing
 *    once (RFC 9901 §7.1 step 4 rejects it) → `checkDisclosureReferences`.
 * 19. A disclosed claim whose name already exists at its level overwrites the issuer's plain
 *    claim (`Object.assign`), and the names `_sd` and `...` are accepted; a two-element disclosure
 *    may be referenced from `_sd` and a three-element one from `...` → `checkDisclosureReferences`.
 * 20. `SDJwtVcInstance.verify` fetches the status list itself: global fetch of any URI (private
 *    addresses included), a 10 s timeout, no size cap, no cache, the list token verified with the
 *    credential issuer's verifier and neither its `typ` nor its `sub` checked; a status other than 0
 *    throws the same error as a network failure → sd-jwt.ts runs the parent class's SD-JWT
 *    `verify` (no status), and status-list.ts fetches, checks and decides.
 * 21. `KBJwt.verifyKB` checks `typ`, the signature, the nonce and that `iat`, `aud` and `sd_hash`
 *    are present, but neither the audience nor the age of `iat`; verification is skipped
 *    altogether when no nonce is passed → sd-jwt.ts always passes the nonce, requires a KB-JWT and
 *    compares `aud` and `iat` (±5 min) itself.
 * 22. `SDJwtVcInstance.verify` checks neither the header's `typ` (`dc+sd-jwt`) nor `vct` (only
 *    through type metadata fetched over the network) → sd-jwt.ts checks both.
 * 23. `StatusList.decompressStatusList` inflates without an output limit (a 1 MB `lst` of zeros
 *    inflates to about 1 GB) and decodes the whole list through strings, and the constructor's
 *    range check lets a value of 2^bits through → status-list.ts inflates with node:zlib under a
 *    limit and reads the one value at `idx` (draft §4.1 bit order); the draft's test vectors show
 *    both decoders agree.
 * 24. `getListFromStatusListJWT` decodes the payload without verifying anything → status-list.ts
 *    verifies the Status List Token (ES256, `x5c` to the trust bundle, `typ`, `sub`, `iat`/`exp`)
 *    before reading `status_list`.
 * 25. @owf/mdoc 0.6.0's `MobileSecurityObject` has no getter for the MSO's `status` (ISO/IEC
 *    18013-5 second edition: `status.status_list {idx, uri}`), though its schema keeps the key →
 *    `readMsoStatus` reads it from the MSO's encoded structure (tests in status-list.test.ts).
 * 26. @owf/mdoc 0.6.0 verifies a DocRequest's `readerAuth` (`ReaderAuth.verify`) but does not
 *    export `ReaderAuthentication`, which makes the bytes to sign → `readerAuthenticationBytes`
 *    writes #6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript, #6.24(ItemsRequest)]) from
 *    the library's own structures; the library's verify checks what signed-dc-api.ts signs
 *    (signed-dc-api.test.ts).
 */
import {
  cborDecode,
  cborEncode,
  CoseKey,
  Curve,
  DataItem,
  DeviceResponse,
  type Document,
  type ItemsRequest,
  KeyType,
  type MobileSecurityObject,
  QrHandover,
  SessionTranscript,
  Sign1,
} from '@owf/mdoc';
import { createHash } from 'node:crypto';
import { validityOf, type X509Certificate } from '../trust/certificates.ts';
import { decodeBase64Url, type EcJwk, encodeBase64Url } from '../keys.ts';
import type { StatusReference } from './credentials.ts';

/** Replaces a tag-18 `Sign1` (what cbor-x makes of it) with the 4-array the schemas expect. */
function untagSign1(map: unknown, key: string): void {
  if (!(map instanceof Map)) return;
  const value: unknown = map.get(key);
  if (value instanceof Sign1) map.set(key, value.encodedStructure);
}

/**
 * Decodes a DeviceResponse, accepting `issuerAuth` and `deviceSignature` with or without COSE
 * tag 18 (gap 1). Throws on anything that is not a DeviceResponse.
 *
 * @example const response = decodeDeviceResponse(base64urlDecoded)
 */
export function decodeDeviceResponse(bytes: Uint8Array): DeviceResponse {
  const raw: unknown = cborDecode(bytes);
  if (!(raw instanceof Map)) throw new Error('DeviceResponse is not a CBOR map');
  const documents: unknown = raw.get('documents');
  for (const document of Array.isArray(documents) ? documents : []) {
    if (!(document instanceof Map)) continue;
    untagSign1(document.get('issuerSigned'), 'issuerAuth');
    const deviceSigned: unknown = document.get('deviceSigned');
    if (deviceSigned instanceof Map) untagSign1(deviceSigned.get('deviceAuth'), 'deviceSignature');
  }
  return DeviceResponse.fromEncodedStructure(raw);
}

/** What checkDocTypes can say (a closed set: refusal details never carry credential text). */
export type DocTypeProblem =
  'the document docType is not the requested one' | 'the docType signed in the MSO is not the requested one';

/**
 * Gap 2: the docType must be the expected one both in the document and in the MSO the issuer
 * signed. Returns what differs (no credential values), or null.
 *
 * @example checkDocTypes(document, 'eu.europa.ec.av.1') // null
 */
export function checkDocTypes(document: Document, expected: string): DocTypeProblem | null {
  if (document.docType !== expected) return 'the document docType is not the requested one';
  const msoDocType = document.issuerSigned.issuerAuth.mobileSecurityObject.docType;
  if (msoDocType !== expected) return 'the docType signed in the MSO is not the requested one';
  return null;
}

/** A certificate on the path from the DS certificate to its trust anchor. */
export interface PathCertificate {
  role: 'DS' | 'intermediate' | 'IACA';
  certificate: X509Certificate;
}

/** What checkCertificateDates can say. */
export type CertificateDateProblem = `the ${PathCertificate['role']} certificate ${'is not valid yet' | 'has expired'}`;

/**
 * Gap 3: every certificate on the path, the IACA included, must be valid at `now` (RFC 5280
 * §6.1.3 (a)(2)). Returns which one is not, or null.
 *
 * @example checkCertificateDates(path, new Date(clock.now()))
 */
export function checkCertificateDates(path: readonly PathCertificate[], now: Date): CertificateDateProblem | null {
  const t = now.getTime();
  for (const { role, certificate } of path) {
    const { notBefore, notAfter } = validityOf(certificate);
    if (t < notBefore.getTime()) return `the ${role} certificate is not valid yet`;
    if (t > notAfter.getTime()) return `the ${role} certificate has expired`;
  }
  return null;
}

// The library's Handover base class, reached through an exported subclass (gap 4).
const HandoverBase = Object.getPrototypeOf(QrHandover) as new (structure: unknown) => object;

/** ISO/IEC 18013-7 Annex C handover: `["dcapi", SHA-256(dcapiInfo)]`. */
class DcapiHandover extends HandoverBase {
  declare structure: Uint8Array;

  get encodedStructure(): unknown {
    return ['dcapi', this.structure];
  }
}

/**
 * The Annex C SessionTranscript `[null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]]`,
 * where `encryptionInfo` is the base64url string the page passed to the Digital Credentials API.
 *
 * @example const transcript = createDcapiSessionTranscript(material.dc.encryptionInfo, 'https://shop.example')
 */
export function createDcapiSessionTranscript(encryptionInfo: string, origin: string): SessionTranscript {
  const dcapiInfoHash = createHash('sha256')
    .update(cborEncode([encryptionInfo, origin]))
    .digest();
  const handover = new DcapiHandover(new Uint8Array(dcapiInfoHash));
  return SessionTranscript.create({
    handover: handover as unknown as Parameters<typeof SessionTranscript.create>[0]['handover'],
  });
}

/**
 * Gap 26: ISO/IEC 18013-5 §9.1.4's ReaderAuthenticationBytes, the detached payload of readerAuth.
 *
 * @example readerAuth = await ReaderAuth.create({ detachedPayload: readerAuthenticationBytes(transcript, itemsRequest), … })
 */
export function readerAuthenticationBytes(
  sessionTranscript: SessionTranscript,
  itemsRequest: ItemsRequest,
): Uint8Array {
  return cborEncode(
    DataItem.fromData([
      'ReaderAuthentication',
      sessionTranscript.encodedStructure,
      DataItem.fromData(itemsRequest.encodedStructure),
    ]),
  );
}

const COSE_CURVES = { 'P-256': Curve['P-256'], 'P-384': Curve['P-384'], 'P-521': Curve['P-521'] } as const;

/**
 * Gap 7: a JWK as a COSE_Key, curves mapped by number.
 *
 * @example ecJwkToCoseKey(createEcJwk('ES384')).curve // Curve['P-384']
 */
export function ecJwkToCoseKey(jwk: EcJwk): CoseKey {
  const x = decodeBase64Url(jwk.x);
  const y = decodeBase64Url(jwk.y);
  const d = jwk.d === undefined ? undefined : decodeBase64Url(jwk.d);
  if (!x || !y || d === null) throw new Error('the JWK has malformed coordinates');
  return CoseKey.create({ keyType: KeyType.Ec, curve: COSE_CURVES[jwk.crv], x, y, ...(d ? { d } : {}) });
}

/** Gap 7: a COSE EC2 key as the JWK Web Crypto imports; throws for other key types or curves. */
export function coseKeyToEcJwk(key: CoseKey, withPrivate: boolean): EcJwk {
  const crv = (Object.keys(COSE_CURVES) as (keyof typeof COSE_CURVES)[]).find(
    (name) => COSE_CURVES[name] === key.curve,
  );
  if (key.keyType !== KeyType.Ec || !crv || !key.x || !key.y)
    throw new Error('only EC2 keys on P-256, P-384 or P-521 are supported');
  const jwk: EcJwk = { kty: 'EC', crv, x: encodeBase64Url(key.x), y: encodeBase64Url(key.y) };
  if (!withPrivate) return jwk;
  if (!key.d) throw new Error('the signing key has no private part');
  return { ...jwk, d: encodeBase64Url(key.d) };
}

/** A disclosure as `checkDisclosureReferences` needs it (sd-jwt.ts reads it). */
export interface DisclosureView {
  /** base64url digest of the encoded disclosure under `_sd_alg` */
  digest: string;
  /** the claim name; null for an array element (a two-element disclosure) */
  name: string | null;
  value: unknown;
}

/** What checkDisclosureReferences can say (fixed phrases, no credential text). */
export type DisclosureProblem =
  | 'a disclosure is not referenced by the issuer JWT'
  | 'a disclosure is sent twice'
  | 'a digest appears more than once'
  | 'a disclosed claim name already exists at its level'
  | 'a disclosure claim name is _sd or ...'
  | 'a disclosure is referenced from the wrong place'
  | 'an _sd or ... entry is malformed';

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Gaps 14–16, RFC 9901 §7.1 steps 3–5: walks the issuer payload and the disclosed values as the
 * verifier embeds them; every digest is found at most once, every disclosure is referenced
 * exactly once, from `_sd` for a claim and from `{"...": digest}` for an array element, and a
 * disclosed name is neither `_sd`, `...` nor one already present at its level.
 *
 * @example checkDisclosureReferences(issuerPayload, disclosures) // null when sound
 */
export function checkDisclosureReferences(
  payload: Record<string, unknown>,
  disclosures: readonly DisclosureView[],
): DisclosureProblem | null {
  const byDigest = new Map<string, DisclosureView>();
  for (const disclosure of disclosures) {
    if (byDigest.has(disclosure.digest)) return 'a disclosure is sent twice';
    byDigest.set(disclosure.digest, disclosure);
  }
  const seen = new Set<string>();
  const referenced = new Set<string>();
  const reference = (digest: unknown, arrayElement: boolean): DisclosureView | null | DisclosureProblem => {
    if (typeof digest !== 'string') return 'an _sd or ... entry is malformed';
    if (seen.has(digest)) return 'a digest appears more than once';
    seen.add(digest);
    const disclosure = byDigest.get(digest);
    if (!disclosure) return null; // a decoy or an undisclosed claim
    if ((disclosure.name === null) !== arrayElement) return 'a disclosure is referenced from the wrong place';
    referenced.add(digest);
    return disclosure;
  };
  const visit = (node: unknown, depth: number): DisclosureProblem | null => {
    if (depth > 64) return 'an _sd or ... entry is malformed';
    if (Array.isArray(node)) {
      for (const item of node) {
        if (isJsonObject(item) && Object.hasOwn(item, '...')) {
          if (Object.keys(item).length !== 1) return 'an _sd or ... entry is malformed';
          const found = reference(item['...'], true);
          if (typeof found === 'string') return found;
          const problem = found ? visit(found.value, depth + 1) : null;
          if (problem) return problem;
        } else {
          const problem = visit(item, depth + 1);
          if (problem) return problem;
        }
      }
      return null;
    }
    if (!isJsonObject(node)) return null;
    const names = new Set(Object.keys(node).filter((key) => key !== '_sd'));
    for (const [key, value] of Object.entries(node)) {
      if (key === '_sd') continue;
      const problem = visit(value, depth + 1);
      if (problem) return problem;
    }
    const sd = node._sd;
    if (sd === undefined) return null;
    if (!Array.isArray(sd)) return 'an _sd or ... entry is malformed';
    for (const digest of sd) {
      const found = reference(digest, false);
      if (typeof found === 'string') return found;
      if (!found) continue;
      const name = found.name!;
      if (name === '_sd' || name === '...') return 'a disclosure claim name is _sd or ...';
      if (names.has(name)) return 'a disclosed claim name already exists at its level';
      names.add(name);
      const problem = visit(found.value, depth + 1);
      if (problem) return problem;
    }
    return null;
  };
  const problem = visit(payload, 0);
  if (problem) return problem;
  return referenced.size === byDigest.size ? null : 'a disclosure is not referenced by the issuer JWT';
}

/** A CBOR map as cbor-x gives it (a Map) or a plain object, read by key. */
function readKey(map: unknown, key: string): unknown {
  if (map instanceof Map) return map.get(key);
  if (typeof map === 'object' && map !== null && !Array.isArray(map)) return (map as Record<string, unknown>)[key];
  return undefined;
}

/**
 * Gap 22: the status list reference of a verified MSO (ISO/IEC 18013-5 second edition), null when it
 * has none, `'malformed'` when `status.status_list` is not `{idx: uint, uri: tstr}`.
 *
 * @example readMsoStatus(document.issuerSigned.issuerAuth.mobileSecurityObject) // { idx: 7, uri: 'https://…' }
 */
export function readMsoStatus(mso: MobileSecurityObject): StatusReference | null | 'malformed' {
  const status = readKey(mso.encodedStructure, 'status');
  if (status === undefined) return null;
  const list = readKey(status, 'status_list');
  if (list === undefined) return status instanceof Map || typeof status === 'object' ? null : 'malformed';
  const idx = readKey(list, 'idx');
  const uri = readKey(list, 'uri');
  if (typeof uri !== 'string' || typeof idx !== 'number' || !Number.isSafeInteger(idx) || idx < 0) return 'malformed';
  return { idx, uri };
}
