/**
 * Sandbox wallet (test support, never trusted outside sandbox): issues a proof-of-age mdoc for a
 * persona from the sandbox issuer, holds its device key, and answers a verifier's request exactly
 * as a phone wallet would — a `direct_post` form for an `av://` link, or an Annex C response for
 * a Digital Credentials API request. `tamper` breaks one thing on purpose, for QA and for the
 * verifier's negative tests (`svc wallet present '<av://…>' --persona <id> --tamper <what>`).
 */
import {
  DeviceAuth,
  DeviceAuthentication,
  DeviceKey,
  DeviceKeyInfo,
  DeviceNamespaces,
  DeviceResponse,
  DeviceSignature,
  DeviceSigned,
  Document,
  Header,
  IssuerAuth,
  Issuer,
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
import type { Persona } from '../../../src/protocol/api.ts';
import { sealDcResponse, type DcRequest } from '../../wallet/dc-api.ts';
import { createEcJwk, type EcJwk, encodeBase64Url, toPublicEcJwk } from '../../wallet/keys.ts';
import { createDcapiSessionTranscript, ecJwkToCoseKey } from '../../wallet/library-gaps.ts';
import { mdocContext } from '../../wallet/mdoc-context.ts';
import { AV_CLAIM, AV_DOCTYPE, AV_NAMESPACE, CREDENTIAL_QUERY_ID, DC_API_PROTOCOL } from '../../wallet/profile.ts';
import { createOid4VpSessionTranscript, parseWalletLink } from '../../wallet/request.ts';
import { personaFacts } from '../personas.ts';
import { createIssuerCertificates, type SandboxIssuer } from './sandbox-issuer.ts';

/** Every way the sandbox wallet can break a presentation, and what the verifier must answer. */
export const WALLET_TAMPERS = {
  nonce: 'device signature over another nonce',
  'response-uri': 'device signature over another response_uri',
  'client-id': 'device signature over another client_id',
  state: 'posts another state',
  origin: 'DC API: device signature over another origin',
  digest: 'age_over_18 changed after the issuer signed it',
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
} as const;

export type WalletTamper = keyof typeof WALLET_TAMPERS;

export function isWalletTamper(value: unknown): value is WalletTamper {
  return typeof value === 'string' && Object.hasOwn(WALLET_TAMPERS, value);
}

const OTHER_DOCTYPE = 'org.iso.18013.5.1.mDL';
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
  /** `json` (default): vp_token={"proof_of_age":[…]}; `brackets`: vp_token[proof_of_age]=… */
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
 * Issues the persona's proof-of-age mdoc, bound to `deviceKey`.
 *
 * @example const issuerSigned = await issueAgeCredential({ issuer, persona, now, deviceKey })
 */
export async function issueAgeCredential(options: PresentOptions & { deviceKey: EcJwk }): Promise<IssuerSigned> {
  const issuer = await issuerFor(options);
  const ageOver18 = personaFacts(options.persona, options.now).isAdult;
  return new Issuer(options.tamper === 'mso-doctype' ? OTHER_DOCTYPE : AV_DOCTYPE, mdocContext)
    .addIssuerNamespace(AV_NAMESPACE, { [AV_CLAIM]: ageOver18 })
    .sign({
      signingKey: ecJwkToCoseKey(issuer.dsKey),
      algorithm: SignatureAlgorithm.ES256,
      digestAlgorithm: 'SHA-256',
      validityInfo: options.validity ?? validityFor(options.now, options.tamper),
      deviceKeyInfo: { deviceKey: asDeviceKey(options.deviceKey) },
      certificates: issuer.x5chain,
    });
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

/** Adds an item the issuer never signed: to our namespace, or under a namespace of its own. */
function addUnsignedItem(issuerSigned: IssuerSigned, where: 'element' | 'namespace'): void {
  const item = IssuerSignedItem.fromOptions({
    digestId: 4242,
    random: new Uint8Array(randomBytes(32)),
    elementIdentifier: where === 'element' ? ATTACKER_TEXT : 'family_name',
    elementValue: 'Doe',
  });
  const namespaces = issuerSigned.issuerNamespaces;
  if (where === 'element')
    namespaces.setIssuerNamespace(AV_NAMESPACE, [...(namespaces.getIssuerNamespace(AV_NAMESPACE) ?? []), item]);
  else namespaces.setIssuerNamespace(ATTACKER_TEXT, [item]);
}

function flipAgeClaim(issuerSigned: IssuerSigned): void {
  for (const item of issuerSigned.getIssuerNamespace(AV_NAMESPACE) ?? []) {
    if (item.elementIdentifier === AV_CLAIM) item.decodedStructure.set('elementValue', !item.elementValue);
  }
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
 * A DeviceResponse for `sessionTranscript`: issues the persona's credential, then signs as the
 * device, with the tampering asked for.
 */
export async function createDeviceResponse(
  options: PresentOptions & { sessionTranscript: SessionTranscript },
): Promise<Uint8Array> {
  const deviceKey = createEcJwk();
  let issuerSigned = await issueAgeCredential({ ...options, deviceKey });
  let signingKey = deviceKey;
  if (options.tamper === 'swap-device-key') {
    signingKey = createEcJwk();
    issuerSigned = swapDeviceKey(issuerSigned, signingKey);
  }
  if (options.tamper === 'device-key') signingKey = createEcJwk();
  if (options.tamper === 'digest') flipAgeClaim(issuerSigned);
  if (options.tamper === 'unsigned-element') addUnsignedItem(issuerSigned, 'element');
  if (options.tamper === 'unsigned-namespace') addUnsignedItem(issuerSigned, 'namespace');
  return presentIssuerSigned({
    issuerSigned,
    signingKey,
    sessionTranscript: options.sessionTranscript,
    docType: options.tamper === 'doctype' ? OTHER_DOCTYPE : AV_DOCTYPE,
    tagIssuerAuth: options.tagIssuerAuth ?? false,
    embedPayload: options.embedPayload === true || options.tamper === 'embedded-payload',
  });
}

/**
 * Answers an `av://` link: the `direct_post` form body and where to post it.
 *
 * @example
 * const { responseUri, body } = await createDirectPost({ link, issuer: loadSandboxIssuer(), persona, now })
 * await fetch(responseUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
 */
export async function createDirectPost(
  options: PresentOptions & { link: string },
): Promise<{ responseUri: string; body: string }> {
  if (options.tamper === 'origin') throw new Error('tamper "origin" applies to the Digital Credentials API only');
  const request = parseWalletLink(options.link);
  const elsewhere = options.tamper === 'embedded-payload';
  const sessionTranscript = await createOid4VpSessionTranscript({
    responseUri: options.tamper === 'response-uri' || elsewhere ? ATTACKER_URI : request.response_uri,
    clientId: options.tamper === 'client-id' || elsewhere ? `redirect_uri:${ATTACKER_URI}` : request.client_id,
    nonce: options.tamper === 'nonce' ? randomBytes(32).toString('base64url') : request.nonce,
  });
  const presentation = encodeBase64Url(await createDeviceResponse({ ...options, sessionTranscript }));
  const form = new URLSearchParams();
  if (options.encoding === 'brackets') form.set(`vp_token[${CREDENTIAL_QUERY_ID}]`, presentation);
  else form.set('vp_token', JSON.stringify({ [CREDENTIAL_QUERY_ID]: [presentation] }));
  form.set('state', options.tamper === 'state' ? randomBytes(32).toString('base64url') : request.state);
  return { responseUri: request.response_uri, body: form.toString() };
}

/**
 * Answers a Digital Credentials API request as a wallet on the device would: the object
 * `navigator.credentials.get` resolves to (its `protocol` and `data`).
 *
 * @example const credential = await createDcApiCredential({ dcRequest, origin: 'https://shop.example', issuer, persona, now })
 */
export async function createDcApiCredential(
  options: PresentOptions & { dcRequest: DcRequest; origin: string },
): Promise<{ protocol: typeof DC_API_PROTOCOL; data: { response: string } }> {
  if (
    options.tamper === 'nonce' ||
    options.tamper === 'response-uri' ||
    options.tamper === 'client-id' ||
    options.tamper === 'state'
  ) {
    throw new Error(`tamper "${options.tamper}" applies to OpenID4VP links only`);
  }
  const { encryptionInfo } = options.dcRequest.data;
  const signedOrigin =
    options.tamper === 'origin' || options.tamper === 'embedded-payload' ? 'https://attacker.example' : options.origin;
  const sessionTranscript = createDcapiSessionTranscript(encryptionInfo, signedOrigin);
  const deviceResponse = await createDeviceResponse({ ...options, sessionTranscript });
  return {
    protocol: DC_API_PROTOCOL,
    data: { response: await sealDcResponse(encryptionInfo, options.origin, deviceResponse) },
  };
}
