/**
 * Sandbox wallet (test support, never trusted outside sandbox): issues a persona's mdocs from the
 * sandbox issuer — the proof of age, the EU PID and the mobile driving licence (design.md §13) —,
 * holds their device key, and answers a verifier's request exactly as a phone wallet would: a
 * `direct_post` form for an `av://` or `openid4vp://` link, an Annex C response for an
 * `org-iso-mdoc` Digital Credentials API request, an encrypted OpenID4VP response for an
 * `openid4vp-v1-unsigned` one. It presents the credential asked for (`credential`, default the
 * first the request accepts) and discloses only the elements the request asks, as a wallet does.
 * `tamper` breaks one thing on purpose, for QA and for the verifier's negative tests
 * (`svc wallet present '<link>' --persona <id> [--credential av|pid|pid-no-age|mdl] --tamper <what>`).
 * `pid-no-age` is the PID as rulebook 1.1 issues it (design.md §15): birth date and nationality,
 * no `age_over_18`; asked isAdult, it discloses the birth date the request offers as the
 * alternative (DCQL `claim_sets`, or Annex C's `alternativeDataElements`). `pid-sd-jwt` is the PID
 * as an SD-JWT VC (`pid_sd`, sandbox-sd-jwt.ts): `birthdate` and `nationalities` disclosed, a KB-JWT
 * over the request's nonce for the client id (link) or `origin:<origin>` (DC API). With
 * `statusList`, every credential points to that status list (the MSO's or the SD-JWT's
 * `status.status_list`), at its revoked entry with `revoked` (`pid-sd-jwt-revoked`, `--revoked`).
 */
import {
  DateOnly,
  DeviceAuth,
  DeviceAuthentication,
  DeviceKey,
  DeviceKeyInfo,
  DeviceNamespaces,
  DeviceRequest,
  DeviceResponse,
  DeviceSignature,
  DeviceSigned,
  Document,
  Header,
  IssuerAuth,
  Issuer,
  type IssuerSigned as IssuerSignedType,
  IssuerSigned,
  IssuerSignedItem,
  MobileSecurityObject,
  ProtectedHeaders,
  cborEncode,
  SignatureAlgorithm,
  type SessionTranscript,
  UnprotectedHeaders,
} from '@owf/mdoc';
import { randomBytes } from 'node:crypto';
import type { DcApiRequest, DcqlQuery } from '../../../src/protocol/wire.ts';
import { type Persona, SANDBOX_WALLET_CHOICES, type SandboxWalletChoice } from '../../../src/protocol/sandbox.ts';
import { ALPHA2_TO_ALPHA3 } from '../../rules/country-codes.ts';
import {
  type CredentialKind,
  credentialOfDocType,
  CREDENTIALS,
  MDL_DOCTYPE,
  PID_SD_QUERY_ID,
  PID_SD_VCT_VALUES,
  type PresentedCredential,
} from '../../wallet/formats/credentials.ts';
import { sealDcResponse } from '../../wallet/answer/hpke.ts';
import { createEcJwk, decodeBase64Url, type EcJwk, encodeBase64Url, toPublicEcJwk } from '../../wallet/keys.ts';
import {
  createDcapiSessionTranscript,
  createOid4vpDcApiSessionTranscript,
  createOid4VpSessionTranscript,
  jwkThumbprintBytes,
} from '../../wallet/formats/session-transcript.ts';
import { ecJwkToCoseKey } from '../../wallet/formats/cose-keys.ts';
import { mdocContext } from '../../wallet/formats/mdoc-context.ts';
import { sealOid4vpDcResponse } from '../../wallet/answer/jwe.ts';
import {
  AV_CLAIM,
  AV_DOCTYPE,
  DC_API_PROTOCOL,
  OID4VP_DC_API_PROTOCOL,
  OID4VP_DC_API_SIGNED_PROTOCOL,
} from '../../wallet/profile.ts';
import { parseWalletLink } from '../../wallet/request/wallet-request.ts';
import {
  encryptAnswer,
  fetchRequestObjectOverHttp,
  isSignedLink,
  readSignedDcRequest,
  readSignedRequest,
  type RequestObjectFetcher,
} from './signed-request-reader.ts';
import { personaClaims, personaFacts } from '../personas.ts';
import type { StatusReference } from '../../wallet/trust/status-list.ts';
import { createIssuerCertificates, type SandboxIssuer } from './sandbox-issuer.ts';
import { issuePidSdJwt, personaPidClaims, presentPidSdJwt } from './sandbox-sd-jwt.ts';
import { SANDBOX_REVOKED_INDEX, SANDBOX_VALID_INDEX } from './sandbox-status-list.ts';

/** Every way the sandbox wallet can break a presentation, and what the verifier must answer. */
export const WALLET_TAMPERS = {
  nonce: 'device signature over another nonce',
  'response-uri': 'device signature over another response_uri',
  'client-id': 'device signature over another client_id',
  state: 'posts another state',
  origin: 'DC API: device signature over another origin',
  digest: 'age_over_18 changed after the issuer signed it (a request that asks it)',
  nationality: 'nationality rewritten after the issuer signed it (a request that asks it)',
  'credential-id': 'the credential presented under the query id of another credential (a PID keyed as mdl)',
  doctype: 'document docType changed (and re-signed by the device)',
  'mso-doctype': 'issuer signed an MSO of another docType',
  'device-key': 'device signature by a key that is not in the MSO',
  'swap-device-key': 'MSO device key replaced under the issuer signature',
  expired: 'MSO validUntil in the past',
  'not-yet-valid': 'MSO validFrom an hour ahead',
  'untrusted-issuer': 'issued under an IACA nobody registered',
  'embedded-payload': 'device signature with its payload embedded, made for another verifier (the replay of issue 16)',
  'unsigned-element': 'an element the issuer never signed, its name 6 KB of text (what the log must not echo)',
  'unsigned-namespace': 'a namespace the issuer never signed, its name 6 KB of text (what the log must not echo)',
  'no-thumbprint': "signed request: device signature over a transcript without the answer key's thumbprint",
  'answer-key': "signed request: the answer encrypted to a key that is not the request's",
} as const;

export type WalletTamper = keyof typeof WALLET_TAMPERS;

export function isWalletTamper(value: unknown): value is WalletTamper {
  return typeof value === 'string' && Object.hasOwn(WALLET_TAMPERS, value);
}

/** 6 KB of text that reads like a claim: the name of an unsigned element or namespace. */
export const ATTACKER_TEXT = 'family_name=Doe;'.repeat(384);
const ATTACKER_URI = 'https://attacker.example/oid4vp/response/x';
const DAY_MS = 86_400_000;
/** Life of a sandbox credential: the EU reference issuer's are about three months. */
const CREDENTIAL_LIFETIME_MS = 30 * DAY_MS;

export interface PresentOptions {
  issuer: SandboxIssuer;
  persona: Persona;
  /** ms since the epoch */
  now: number;
  tamper?: WalletTamper;
  /** the credential to present (SANDBOX_CREDENTIALS); default the first the request accepts */
  credential?: SandboxWalletChoice;
  /**
   * elements to issue instead of the persona's, by name; one set to undefined is left out
   * (e.g. `{ nationality: undefined }`: an mDL without nationality; `{ nationality: ['DE', 'FR'] }`)
   */
  elements?: Readonly<Record<string, unknown>>;
  /** disclose every issued element, not only those the request asks (a wallet that over-shares) */
  discloseAll?: boolean;
  /** `json` (default): vp_token={"<id>":[…]}; `brackets`: vp_token[<id>]=… */
  encoding?: 'json' | 'brackets';
  /** Wrap issuerAuth in COSE tag 18, as some issuers do (valid, and must be accepted). */
  tagIssuerAuth?: boolean;
  /**
   * Embed the DeviceAuthenticationBytes in the device signature instead of leaving the payload
   * nil (ISO/IEC 18013-5 §9.1.3 detaches them): what a replayed presentation looks like.
   */
  embedPayload?: boolean;
  /** The MSO's validityInfo as given (its edge cases); default signed and valid from `now` for 30 days. */
  validity?: { signed: Date; validFrom: Date; validUntil: Date };
  /** the status list the credential points to (the sandbox's: `{app_url}/sandbox/status/1`); absent: none */
  statusList?: string;
  /** with `statusList`: point to its revoked entry instead of a valid one */
  revoked?: boolean;
  /** with `statusList`: point to this entry (the sandbox list: 1 revoked, 2 suspended, every other valid) */
  statusIndex?: number;
}

/** The public half of a key, as the MSO's DeviceKey. */
function asDeviceKey(jwk: EcJwk): DeviceKey {
  return DeviceKey.fromEncodedStructure(ecJwkToCoseKey(toPublicEcJwk(jwk)).encodedStructure);
}

function validityFor(
  now: number,
  tamper: WalletTamper | undefined,
): { signed: Date; validFrom: Date; validUntil: Date } {
  if (tamper === 'expired') {
    const signed = new Date(now - CREDENTIAL_LIFETIME_MS - DAY_MS);
    return { signed, validFrom: signed, validUntil: new Date(now - DAY_MS) };
  }
  const validFrom = new Date(tamper === 'not-yet-valid' ? now + 3_600_000 : now);
  return { signed: new Date(now), validFrom, validUntil: new Date(now + CREDENTIAL_LIFETIME_MS) };
}

async function issuerFor(options: PresentOptions): Promise<SandboxIssuer> {
  if (options.tamper !== 'untrusted-issuer') return options.issuer;
  return createIssuerCertificates({
    name: 'Unregistered',
    country: 'XX',
    notBefore: new Date(options.now - 365 * DAY_MS),
    notAfter: new Date(options.now + 365 * DAY_MS),
  });
}

/**
 * What each sandbox wallet choice presents: the credential, and the elements its issuer writes
 * differently from the persona's (one set to undefined is left out). A new choice is one row here
 * and one in SANDBOX_WALLET_CHOICES (src/protocol/sandbox.ts), which the phone page and the CLI list.
 */
export const SANDBOX_CREDENTIALS: Readonly<
  Record<
    SandboxWalletChoice,
    { kind: PresentedCredential; elements?: Readonly<Record<string, unknown>>; revoked?: boolean }
  >
> = {
  av: { kind: 'av' },
  pid: { kind: 'pid' },
  // PID rulebook 1.1 (September 2025) removed the age attributes: birth_date and nationality remain.
  'pid-no-age': { kind: 'pid', elements: { [AV_CLAIM]: undefined } },
  mdl: { kind: 'mdl' },
  'pid-sd-jwt': { kind: PID_SD_QUERY_ID },
  'pid-sd-jwt-revoked': { kind: PID_SD_QUERY_ID, revoked: true },
};

export function isSandboxWalletChoice(value: unknown): value is SandboxWalletChoice {
  return typeof value === 'string' && Object.hasOwn(SANDBOX_WALLET_CHOICES, value);
}

/** The credential kind a choice presents, and the element overrides of `options` over the choice's own. */
function resolveChoice(options: PresentOptions): {
  kind: PresentedCredential | undefined;
  elements: Readonly<Record<string, unknown>>;
  revoked: boolean;
} {
  const choice = options.credential === undefined ? undefined : SANDBOX_CREDENTIALS[options.credential];
  return {
    kind: choice?.kind,
    elements: { ...choice?.elements, ...options.elements },
    revoked: options.revoked === true || choice?.revoked === true,
  };
}

/** The status list entry a credential points to, when the options name a list. */
function statusOf(options: PresentOptions): StatusReference | undefined {
  if (options.statusList === undefined) return undefined;
  const idx = options.statusIndex ?? (resolveChoice(options).revoked ? SANDBOX_REVOKED_INDEX : SANDBOX_VALID_INDEX);
  return { idx, uri: options.statusList };
}

/** Re-signs an issued mdoc with `status.status_list` in its MSO (ISO/IEC 18013-5 second edition). */
async function withMsoStatus(
  issuerSigned: IssuerSignedType,
  status: StatusReference,
  issuer: SandboxIssuer,
): Promise<IssuerSigned> {
  const original = issuerSigned.issuerAuth;
  const mso = MobileSecurityObject.fromEncodedStructure(
    new Map([
      ...(original.mobileSecurityObject.encodedStructure as unknown as Map<unknown, unknown>),
      [
        'status',
        new Map([
          [
            'status_list',
            new Map<string, unknown>([
              ['idx', status.idx],
              ['uri', status.uri],
            ]),
          ],
        ]),
      ],
    ]) as never,
  );
  const issuerAuth = await IssuerAuth.create(
    {
      payload: mso,
      protectedHeaders: original.protectedHeaders,
      unprotectedHeaders: original.unprotectedHeaders,
      signingKey: ecJwkToCoseKey(issuer.dsKey),
      algorithm: SignatureAlgorithm.ES256,
    } as never,
    mdocContext,
  );
  return IssuerSigned.create({ issuerNamespaces: issuerSigned.issuerNamespaces, issuerAuth });
}

/** The thrown error when the request does not accept the credential asked for. */
export class CredentialChoiceError extends Error {
  override name = 'CredentialChoiceError';
}

// Personas hold ISO 3166-1 alpha-3 codes, credentials carry alpha-2 (PID rulebook, ISO 18013-5).
const ALPHA3_TO_ALPHA2: ReadonlyMap<string, string> = new Map(
  Object.entries(ALPHA2_TO_ALPHA3).map(([alpha2, alpha3]) => [alpha3, alpha2]),
);

function alpha2Of(alpha3: string): string {
  const code = ALPHA3_TO_ALPHA2.get(alpha3);
  if (!code) throw new Error(`no ISO 3166-1 alpha-2 code for ${alpha3}`);
  return code;
}

/**
 * What the sandbox issuer writes into a persona's credential: age_over_18 from the birth date on
 * `now`, and for the PID and the mDL the birth date (an element no request asks) and the
 * nationality (alpha-2: a list in a PID, a string in an mDL), then `overrides`.
 *
 * @example personaElements('pid', persona, now) // { birth_date: 1992-03-14, age_over_18: true, nationality: ['FR'] }
 */
export function personaElements(
  kind: CredentialKind,
  persona: Persona,
  now: number,
  overrides: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const ageOver18 = personaFacts(persona, now).isAdult;
  const claims = personaClaims(persona, now);
  const nationalities = claims.nationalities.map(alpha2Of);
  const elements: Record<string, unknown> =
    kind === 'av'
      ? { [AV_CLAIM]: ageOver18 }
      : {
          birth_date: new DateOnly(claims.birthdate),
          [AV_CLAIM]: ageOver18,
          nationality: kind === 'pid' ? nationalities : nationalities[0],
        };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete elements[name];
    else elements[name] = value;
  }
  return elements;
}

/** A docType the verifier did not ask under this credential's id. */
function otherDocType(kind: CredentialKind): string {
  return kind === 'mdl' ? AV_DOCTYPE : MDL_DOCTYPE;
}

/**
 * Issues the persona's mdoc of `credential` (default the proof of age), bound to `deviceKey`.
 *
 * @example const issuerSigned = await issueCredential({ issuer, persona, now, deviceKey, credential: 'pid' })
 */
export async function issueCredential(options: PresentOptions & { deviceKey: EcJwk }): Promise<IssuerSigned> {
  const issuer = await issuerFor(options);
  const resolved = resolveChoice(options);
  const kind = resolved.kind ?? 'av';
  if (kind === PID_SD_QUERY_ID) throw new Error('the SD-JWT VC PID is issued by sandbox-sd-jwt.ts');
  const { docType, namespace } = CREDENTIALS[kind];
  const status = statusOf(options);
  const issued = await new Issuer(options.tamper === 'mso-doctype' ? otherDocType(kind) : docType, mdocContext)
    .addIssuerNamespace(namespace, personaElements(kind, options.persona, options.now, resolved.elements))
    .sign({
      signingKey: ecJwkToCoseKey(issuer.dsKey),
      algorithm: SignatureAlgorithm.ES256,
      digestAlgorithm: 'SHA-256',
      validityInfo: options.validity ?? validityFor(options.now, options.tamper),
      deviceKeyInfo: { deviceKey: asDeviceKey(options.deviceKey) },
      certificates: issuer.x5chain,
    });
  return status ? withMsoStatus(issued, status, issuer) : issued;
}

/** Replaces the MSO's device key and keeps the issuer's signature (which then no longer matches). */
function swapDeviceKey(issuerSigned: IssuerSigned, deviceKey: EcJwk): IssuerSigned {
  const original = issuerSigned.issuerAuth;
  const mso = original.mobileSecurityObject;
  const forged = MobileSecurityObject.create({
    docType: mso.docType,
    digestAlgorithm: mso.digestAlgorithm,
    valueDigests: mso.valueDigests,
    validityInfo: mso.validityInfo,
    deviceKeyInfo: DeviceKeyInfo.create({ deviceKey: asDeviceKey(deviceKey) }),
  });
  const issuerAuth = new IssuerAuth({ ...original.decodedStructure, payload: forged.encode({ asDataItem: true }) });
  return IssuerSigned.create({ issuerNamespaces: issuerSigned.issuerNamespaces, issuerAuth });
}

/** Adds an item the issuer never signed: to the credential's namespace, or under a namespace of its own. */
function addUnsignedItem(issuerSigned: IssuerSigned, namespace: string, where: 'element' | 'namespace'): void {
  const item = IssuerSignedItem.fromOptions({
    digestId: 4242,
    random: new Uint8Array(randomBytes(32)),
    elementIdentifier: where === 'element' ? ATTACKER_TEXT : 'family_name',
    elementValue: 'Doe',
  });
  const namespaces = issuerSigned.issuerNamespaces;
  if (where === 'element')
    namespaces.setIssuerNamespace(namespace, [...(namespaces.getIssuerNamespace(namespace) ?? []), item]);
  else namespaces.setIssuerNamespace(ATTACKER_TEXT, [item]);
}

/** Rewrites a disclosed element's value under the issuer's signature (its digest no longer matches). */
function rewriteElement(
  issuerSigned: IssuerSigned,
  namespace: string,
  name: string,
  rewrite: (value: unknown) => unknown,
) {
  for (const item of issuerSigned.getIssuerNamespace(namespace) ?? []) {
    if (item.elementIdentifier === name) item.decodedStructure.set('elementValue', rewrite(item.elementValue));
  }
}

/** Keeps only the elements asked (selective disclosure: the MSO's digests of the others stay, unmatched). */
function disclose(issuerSigned: IssuerSigned, namespace: string, asked: readonly string[]): void {
  const items = issuerSigned.getIssuerNamespace(namespace) ?? [];
  issuerSigned.issuerNamespaces.setIssuerNamespace(
    namespace,
    items.filter((item) => asked.includes(item.elementIdentifier)),
  );
}

/** Puts COSE tag 18 (0xd2) in front of issuerAuth inside an encoded DeviceResponse. */
function tagIssuerAuth(encoded: Uint8Array, issuerSigned: IssuerSigned): Uint8Array {
  const needle = Buffer.from(cborEncode(issuerSigned.issuerAuth.encodedStructure));
  const haystack = Buffer.from(encoded);
  const at = haystack.indexOf(needle);
  if (at < 0 || haystack.indexOf(needle, at + 1) >= 0)
    throw new Error('issuerAuth not found once in the DeviceResponse');
  return new Uint8Array(Buffer.concat([haystack.subarray(0, at), Buffer.from([0xd2]), haystack.subarray(at)]));
}

/**
 * Signs a DeviceResponse as the device: one document with `issuerSigned`, a device signature by
 * `signingKey` over DeviceAuthentication(`sessionTranscript`, `docType`, no device namespaces).
 *
 * @example const bytes = await presentIssuerSigned({ issuerSigned, signingKey: deviceKey, sessionTranscript })
 */
export async function presentIssuerSigned(options: {
  issuerSigned: IssuerSigned;
  signingKey: EcJwk;
  sessionTranscript: SessionTranscript;
  docType?: string;
  tagIssuerAuth?: boolean;
  embedPayload?: boolean;
}): Promise<Uint8Array> {
  const docType = options.docType ?? AV_DOCTYPE;
  const deviceNamespaces = DeviceNamespaces.create({ deviceNamespaces: new Map() });
  const deviceAuthentication = DeviceAuthentication.create({
    sessionTranscript: options.sessionTranscript,
    docType,
    deviceNamespaces,
  });
  const signedBytes = deviceAuthentication.encode({ asDataItem: true });
  const deviceSignature = await DeviceSignature.create(
    {
      protectedHeaders: ProtectedHeaders.create({
        protectedHeaders: new Map([[Header.Algorithm, SignatureAlgorithm.ES256]]),
      }),
      unprotectedHeaders: UnprotectedHeaders.create({}),
      ...(options.embedPayload ? { payload: signedBytes } : { detachedPayload: signedBytes }),
      signingKey: ecJwkToCoseKey(options.signingKey),
    },
    mdocContext,
  );
  const document = Document.create({
    docType,
    issuerSigned: options.issuerSigned,
    deviceSigned: DeviceSigned.create({ deviceNamespaces, deviceAuth: DeviceAuth.create({ deviceSignature }) }),
  });
  const encoded = DeviceResponse.createSimple({ documents: [document] }).encode();
  return options.tagIssuerAuth ? tagIssuerAuth(encoded, options.issuerSigned) : encoded;
}

/**
 * One credential a request asks for: its query id (none in Annex C), every element it may ask,
 * and the sets of them a wallet may disclose, preferred first (one set without alternatives).
 */
export interface AskedCredential {
  kind: PresentedCredential;
  queryId: string;
  elements: readonly string[];
  /** default: [elements] */
  elementSets?: readonly (readonly string[])[];
}

interface DcqlClaim {
  id?: unknown;
  path?: unknown[];
}

/** The credential of a DCQL credential query: an mdoc by its doctype, the SD-JWT VC PID by its vct. */
function kindOfQuery(credential: Record<string, unknown>): PresentedCredential | null {
  const meta = credential.meta as { doctype_value?: unknown; vct_values?: unknown } | undefined;
  if (credential.format === 'dc+sd-jwt')
    return Array.isArray(meta?.vct_values) && meta.vct_values.some((v) => PID_SD_VCT_VALUES.includes(String(v)))
      ? PID_SD_QUERY_ID
      : null;
  return credentialOfDocType(String(meta?.doctype_value));
}

/**
 * The credentials a DCQL query asks for, in its order (query ids of other credentials skipped); an
 * mdoc's elements by name (`path[1]`), an SD-JWT's claims by their top-level name (`path[0]`).
 */
export function askedByDcql(query: unknown): AskedCredential[] {
  const credentials = (query as { credentials?: unknown } | null)?.credentials;
  if (!Array.isArray(credentials)) return [];
  return credentials.flatMap((credential: Record<string, unknown> | null) => {
    const kind = credential === null ? null : kindOfQuery(credential);
    if (kind === null || typeof credential?.id !== 'string') return [];
    const claims = (Array.isArray(credential.claims) ? credential.claims : []) as DcqlClaim[];
    const elements = claims.map((claim) => String(claim.path?.[kind === PID_SD_QUERY_ID ? 0 : 1]));
    const elementOf = (id: unknown) => elements[claims.findIndex((claim) => claim.id === id)];
    const sets = Array.isArray(credential.claim_sets)
      ? (credential.claim_sets as unknown[][]).map((set) => set.map(elementOf).filter((e) => e !== undefined))
      : [elements];
    return [{ kind, queryId: credential.id, elements, elementSets: sets }];
  });
}

/**
 * The credentials an Annex C DeviceRequest asks for, in its order, with the alternatives of its
 * `requestInfo.alternativeDataElements` (ISO/IEC 18013-5 second edition).
 */
export function askedByDeviceRequest(deviceRequest: string): AskedCredential[] {
  const bytes = decodeBase64Url(deviceRequest);
  if (!bytes) throw new Error('deviceRequest is not base64url');
  return DeviceRequest.decode(bytes).docRequests.flatMap((docRequest) => {
    const { docType, namespaces } = docRequest.itemsRequest;
    const kind = credentialOfDocType(docType);
    if (kind === null) return [];
    const base = [...(namespaces.get(CREDENTIALS[kind].namespace)?.keys() ?? [])].map(String);
    const info: unknown = (docRequest.itemsRequest.decodedStructure as unknown as Map<string, unknown>).get(
      'requestInfo',
    );
    const alternatives: unknown = info instanceof Map ? info.get('alternativeDataElements') : undefined;
    const sets: string[][] = [base];
    for (const alternative of Array.isArray(alternatives) ? alternatives : []) {
      if (!(alternative instanceof Map)) continue;
      const requested = String((alternative.get('requestedElement') as unknown[] | undefined)?.[1]);
      for (const set of (alternative.get('alternativeElementSets') as unknown[][][] | undefined) ?? [])
        sets.push([...base.filter((e) => e !== requested), ...set.map((reference) => String(reference[1]))]);
    }
    const elements = [...new Set(sets.flat())];
    return [{ kind, queryId: CREDENTIALS[kind].queryId, elements, elementSets: sets }];
  });
}

/** The first of the asked sets every element of which was issued (a wallet answers what it holds), else the first. */
export function elementsToDisclose(asked: AskedCredential, issued: readonly string[]): readonly string[] {
  const sets = asked.elementSets ?? [asked.elements];
  return sets.find((set) => set.every((e) => issued.includes(e))) ?? sets[0] ?? [];
}

/**
 * The credential to present: the one asked for, which the request must accept, or the first it
 * accepts. Throws CredentialChoiceError otherwise.
 */
export function chooseCredential(asked: readonly AskedCredential[], wanted?: SandboxWalletChoice): AskedCredential {
  const kind = wanted === undefined ? undefined : SANDBOX_CREDENTIALS[wanted].kind;
  const chosen = kind === undefined ? asked[0] : asked.find((credential) => credential.kind === kind);
  if (!chosen) {
    const accepted = asked.map((credential) => credential.kind).join(', ') || 'none of av, pid, mdl';
    throw new CredentialChoiceError(
      `the request does not accept ${wanted ?? 'any credential'} (it accepts ${accepted})`,
    );
  }
  return chosen;
}

/** The query id a presentation is keyed by: its own, or another one with the `credential-id` tamper. */
function keyOf(chosen: AskedCredential, asked: readonly AskedCredential[], tamper?: WalletTamper): string {
  if (tamper !== 'credential-id') return chosen.queryId;
  return (
    asked.find((credential) => credential.kind !== chosen.kind)?.queryId ?? (chosen.kind === 'mdl' ? 'pid' : 'mdl')
  );
}

const AV_ASKED: AskedCredential = {
  kind: 'av',
  queryId: CREDENTIALS.av.queryId,
  elements: [AV_CLAIM],
  elementSets: [[AV_CLAIM]],
};

/**
 * A DeviceResponse for `sessionTranscript`: issues the persona's credential (`asked`: default the
 * proof of age with age_over_18), discloses the elements asked, then signs as the device, with the
 * tampering asked for.
 */
export async function createDeviceResponse(
  options: PresentOptions & { sessionTranscript: SessionTranscript; asked?: AskedCredential },
): Promise<Uint8Array> {
  const asked = options.asked ?? AV_ASKED;
  if (asked.kind === PID_SD_QUERY_ID) throw new Error('the SD-JWT VC PID has no DeviceResponse');
  const { namespace, docType } = CREDENTIALS[asked.kind];
  const deviceKey = createEcJwk();
  const { elements } = resolveChoice(options);
  const revoked = resolveChoice(options).revoked;
  let issuerSigned = await issueCredential({ ...options, credential: asked.kind, elements, deviceKey, revoked });
  let signingKey = deviceKey;
  if (options.tamper === 'swap-device-key') {
    signingKey = createEcJwk();
    issuerSigned = swapDeviceKey(issuerSigned, signingKey);
  }
  if (options.tamper === 'device-key') signingKey = createEcJwk();
  const issued = (issuerSigned.getIssuerNamespace(namespace) ?? []).map((item) => item.elementIdentifier);
  if (!options.discloseAll) disclose(issuerSigned, namespace, elementsToDisclose(asked, issued));
  if (options.tamper === 'digest') rewriteElement(issuerSigned, namespace, AV_CLAIM, (value) => !value);
  if (options.tamper === 'nationality') {
    // A German made French (a French one German): what an attacker would rewrite.
    const rewritten = (value: unknown) =>
      value === 'FR' || (Array.isArray(value) && value.includes('FR')) ? 'DE' : 'FR';
    rewriteElement(issuerSigned, namespace, 'nationality', (value) =>
      Array.isArray(value) ? [rewritten(value)] : rewritten(value),
    );
  }
  if (options.tamper === 'unsigned-element') addUnsignedItem(issuerSigned, namespace, 'element');
  if (options.tamper === 'unsigned-namespace') addUnsignedItem(issuerSigned, namespace, 'namespace');
  return presentIssuerSigned({
    issuerSigned,
    signingKey,
    sessionTranscript: options.sessionTranscript,
    docType: options.tamper === 'doctype' ? otherDocType(asked.kind) : docType,
    tagIssuerAuth: options.tagIssuerAuth ?? false,
    embedPayload: options.embedPayload === true || options.tamper === 'embedded-payload',
  });
}

/**
 * Answers an `av://` or `openid4vp://` link: the `direct_post` form body and where to post it,
 * presenting `credential` (default the first the link's DCQL query asks for). A signed link
 * (`client_id=x509_hash:…&request_uri=…`, docs/design.md §16) is fetched through
 * `fetchRequestObject` (default over HTTP) and verified, and the answer is `response=<JWE>`.
 *
 * @example
 * const { responseUri, body } = await createDirectPost({ link, issuer: loadSandboxIssuer(), persona, now })
 * await fetch(responseUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
 */
export async function createDirectPost(
  options: PresentOptions & { link: string; fetchRequestObject?: RequestObjectFetcher },
): Promise<{ responseUri: string; body: string }> {
  if (options.tamper === 'origin') throw new Error('tamper "origin" applies to the Digital Credentials API only');
  const signed = isSignedLink(options.link)
    ? await readSignedRequest(options.link, options.fetchRequestObject ?? fetchRequestObjectOverHttp)
    : null;
  if (!signed && (options.tamper === 'no-thumbprint' || options.tamper === 'answer-key'))
    throw new Error(`tamper "${options.tamper}" applies to signed requests only`);
  const request = signed ?? parseWalletLink(options.link);
  const asked = askedByDcql(request.dcql_query);
  const chosen = chooseCredential(asked, options.credential);
  let presentation: string;
  if (chosen.kind === PID_SD_QUERY_ID) {
    if (options.tamper === 'no-thumbprint') throw new Error('tamper "no-thumbprint" applies to mdoc answers only');
    presentation = await createSdJwtPresentation({
      ...options,
      asked: chosen,
      nonce: request.nonce,
      audience: request.client_id,
    });
  } else {
    const elsewhere = options.tamper === 'embedded-payload';
    const sessionTranscript = await createOid4VpSessionTranscript({
      responseUri: options.tamper === 'response-uri' || elsewhere ? ATTACKER_URI : request.response_uri,
      clientId: options.tamper === 'client-id' || elsewhere ? `redirect_uri:${ATTACKER_URI}` : request.client_id,
      nonce: options.tamper === 'nonce' ? randomBytes(32).toString('base64url') : request.nonce,
      ...(signed && options.tamper !== 'no-thumbprint'
        ? { jwkThumbprint: await jwkThumbprintBytes(signed.encryptTo) }
        : {}),
    });
    presentation = encodeBase64Url(await createDeviceResponse({ ...options, sessionTranscript, asked: chosen }));
  }
  const key = keyOf(chosen, asked, options.tamper);
  const state = options.tamper === 'state' ? randomBytes(32).toString('base64url') : request.state;
  // A signed request is answered with one JWE, whatever the credential (docs/design.md §16).
  if (signed) {
    const stranger = createEcJwk();
    const to =
      options.tamper === 'answer-key' ? { ...signed.encryptTo, x: stranger.x, y: stranger.y } : signed.encryptTo;
    const jwe = await encryptAnswer(to, { vp_token: { [key]: [presentation] }, state }, signed.enc);
    return { responseUri: request.response_uri, body: new URLSearchParams({ response: jwe }).toString() };
  }
  const form = new URLSearchParams();
  if (options.encoding === 'brackets') form.set(`vp_token[${key}]`, presentation);
  else form.set('vp_token', JSON.stringify({ [key]: [presentation] }));
  form.set('state', state);
  return { responseUri: request.response_uri, body: form.toString() };
}

/** The tampers an SD-JWT VC PID presentation can carry (the others are the mdoc's). */
const SD_JWT_TAMPERS: ReadonlySet<WalletTamper> = new Set([
  'nonce',
  'client-id',
  'origin',
  'state',
  'credential-id',
  'expired',
  'untrusted-issuer',
]);

/**
 * The persona's PID as an SD-JWT VC (rulebook 1.1: `birthdate` and `nationalities`, no age claim),
 * bound to a fresh holder key, pointing to `statusList` when given, presented with the claims the
 * query's first satisfiable claim set names and a KB-JWT over `nonce` for `audience`.
 */
async function createSdJwtPresentation(
  options: PresentOptions & { asked: AskedCredential; nonce: string; audience: string },
): Promise<string> {
  if (options.tamper && !SD_JWT_TAMPERS.has(options.tamper))
    throw new Error(`tamper "${options.tamper}" does not apply to the SD-JWT VC PID`);
  const holderKey = createEcJwk();
  const { tamper } = options;
  const claims = personaPidClaims(options.persona, options.now);
  const status = statusOf(options);
  const expired = tamper === 'expired';
  const credential = await issuePidSdJwt({
    issuer: await issuerFor(options),
    holderKey,
    claims,
    now: expired ? options.now - 2 * DAY_MS : options.now,
    ...(expired ? { validitySeconds: 3600 } : {}),
    ...(status ? { status } : {}),
  });
  // `origin`: the caller passes the other origin's audience already (createDcApiCredential).
  return presentPidSdJwt({
    credential,
    holderKey,
    disclose: elementsToDisclose(options.asked, Object.keys(claims)) as (keyof typeof claims)[],
    nonce: tamper === 'nonce' ? randomBytes(32).toString('base64url') : options.nonce,
    audience: tamper === 'client-id' ? `redirect_uri:${ATTACKER_URI}` : options.audience,
    now: options.now,
  });
}

/** What `navigator.credentials.get` resolves to (its `protocol` and `data`). */
export interface DcApiCredential {
  protocol: DcApiRequest['protocol'];
  data: { response: string };
}

/**
 * ISO/IEC 18013-5 §9.1.4 as a wallet checks it (docs/design.md §16): every DocRequest's readerAuth,
 * where there is one, verifies (@owf/mdoc's ReaderAuth.verify, the key of its x5chain leaf) over
 * this request's `dcapi` transcript for the page's `origin` and that DocRequest's ItemsRequest.
 * Throws when one does not; a DocRequest without readerAuth is read as unsigned.
 */
async function checkReaderAuth(deviceRequest: string, encryptionInfo: string, origin: string): Promise<void> {
  const bytes = decodeBase64Url(deviceRequest);
  if (!bytes) throw new Error('deviceRequest is not base64url');
  const sessionTranscript = createDcapiSessionTranscript(encryptionInfo, origin);
  for (const { itemsRequest, readerAuth } of DeviceRequest.decode(bytes).docRequests) {
    if (!readerAuth) continue;
    let failed = false;
    await readerAuth.verify(
      {
        readerAuthentication: { sessionTranscript, itemsRequest },
        verificationCallback: ({ status }) => void (failed ||= status === 'FAILED'),
      },
      mdocContext,
    );
    if (failed) throw new Error(`readerAuth does not verify for ${origin}`);
  }
}

/**
 * Answers a Digital Credentials API request as a wallet on the device would: the object
 * `navigator.credentials.get` resolves to. `org-iso-mdoc`: an Annex C response (HPKE), after
 * checking readerAuth where the request carries it; `openid4vp-v1-unsigned`: a JWE of `{ vp_token }`
 * to the request's key; `openid4vp-v1-signed`: the same, after checking the request object and
 * that `expected_origins` lists `origin` (signed-request-reader.ts). Presents `credential`
 * (default the first the request accepts).
 *
 * @example const credential = await createDcApiCredential({ dcRequest, origin: 'https://shop.example', issuer, persona, now })
 */
export async function createDcApiCredential(
  options: PresentOptions & { dcRequest: DcApiRequest; origin: string },
): Promise<DcApiCredential> {
  if (
    options.tamper === 'nonce' ||
    options.tamper === 'response-uri' ||
    options.tamper === 'client-id' ||
    options.tamper === 'state' ||
    options.tamper === 'no-thumbprint' ||
    options.tamper === 'answer-key'
  ) {
    throw new Error(`tamper "${options.tamper}" applies to OpenID4VP links only`);
  }
  const signedOrigin =
    options.tamper === 'origin' || options.tamper === 'embedded-payload' ? 'https://attacker.example' : options.origin;
  const { dcRequest } = options;
  if (dcRequest.protocol === OID4VP_DC_API_PROTOCOL || dcRequest.protocol === OID4VP_DC_API_SIGNED_PROTOCOL) {
    const { protocol } = dcRequest;
    const { nonce, query, jwk } =
      protocol === OID4VP_DC_API_SIGNED_PROTOCOL
        ? await readSignedDcRequest(dcRequest.data.request, options.origin).then((read) => ({
            nonce: read.nonce,
            query: read.dcql_query as DcqlQuery,
            jwk: read.encryptTo,
          }))
        : {
            nonce: dcRequest.data.nonce,
            query: dcRequest.data.dcql_query,
            jwk: dcRequest.data.client_metadata.jwks.keys[0],
          };
    const asked = askedByDcql(query);
    const chosen = chooseCredential(asked, options.credential);
    if (!jwk) throw new Error('the request has no encryption key in client_metadata.jwks');
    if (chosen.kind === PID_SD_QUERY_ID) {
      const presentation = await createSdJwtPresentation({
        ...options,
        asked: chosen,
        nonce,
        audience: `origin:${signedOrigin}`,
      });
      const vpToken = { [keyOf(chosen, asked, options.tamper)]: [presentation] };
      return { protocol, data: { response: await sealOid4vpDcResponse(jwk, { vp_token: vpToken }) } };
    }
    const sessionTranscript = await createOid4vpDcApiSessionTranscript({ origin: signedOrigin, nonce, jwk });
    const deviceResponse = await createDeviceResponse({ ...options, sessionTranscript, asked: chosen });
    const vpToken = { [keyOf(chosen, asked, options.tamper)]: [encodeBase64Url(deviceResponse)] };
    return { protocol, data: { response: await sealOid4vpDcResponse(jwk, { vp_token: vpToken }) } };
  }
  const { encryptionInfo, deviceRequest } = dcRequest.data;
  await checkReaderAuth(deviceRequest, encryptionInfo, options.origin);
  const chosen = chooseCredential(askedByDeviceRequest(deviceRequest), options.credential);
  const sessionTranscript = createDcapiSessionTranscript(encryptionInfo, signedOrigin);
  const deviceResponse = await createDeviceResponse({ ...options, sessionTranscript, asked: chosen });
  return {
    protocol: DC_API_PROTOCOL,
    data: { response: await sealDcResponse(encryptionInfo, options.origin, deviceResponse) },
  };
}
