/**
 * The Digital Credentials API requests a verifier with an access certificate sends (docs/design.md
 * §16), one set per page origin (the partner page's, the phone page's), made with the request:
 *
 * openid4vp-v1-signed  `{ protocol, data: { request: <JWS> } }`, the JWS (ES256, `typ`
 *                      `oauth-authz-req+jwt`, `x5c` the chain) over `{ client_id: x509_hash:…,
 *                      expected_origins: [origin], response_type: vp_token, response_mode:
 *                      dc_api.jwt, nonce, dcql_query, client_metadata }` (OpenID4VP 1.0 §A.3.2),
 *                      with the nonce and answer key of the unsigned request beside it: the answer
 *                      is checked the same way (answer/dc-api.ts), its transcript the
 *                      OpenID4VPDCAPIHandover of the origin, its KB-JWT `aud` `origin:<origin>`
 *                      (§A.4: "even for signed requests").
 * org-iso-mdoc         the Annex C DeviceRequest with, in each DocRequest, ISO/IEC 18013-5 §9.1.4
 *                      reader authentication: a COSE_Sign1 by the access key, `x5chain` the chain,
 *                      over ReaderAuthenticationBytes = #6.24(bstr .cbor ["ReaderAuthentication",
 *                      SessionTranscript, ItemsRequestBytes]) with the payload detached
 *                      (gap 26, below); the transcript is the `dcapi` one of the
 *                      EncryptionInfo and the origin.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 26. @owf/mdoc 0.6.0 verifies a DocRequest's `readerAuth` (`ReaderAuth.verify`) but does not
 *    export `ReaderAuthentication`, which makes the bytes to sign → `readerAuthenticationBytes`
 *    writes #6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript, #6.24(ItemsRequest)]) from
 *    the library's own structures; the library's verify checks what this file signs
 *    (signed-dc-request.test.ts).
 */
import {
  cborEncode,
  DataItem,
  DeviceRequest,
  DocRequest,
  Header,
  type ItemsRequest,
  ProtectedHeaders,
  ReaderAuth,
  type SessionTranscript,
  SignatureAlgorithm,
  UnprotectedHeaders,
} from '@owf/mdoc';
import { CompactSign, importJWK } from 'jose';
import type { Oid4vpSignedDcRequest } from '../../../src/protocol/wire.ts';
import type { AccessCertificate } from './access-certificate.ts';
import type { CredentialKind, DcqlQuery, WalletScope } from '../formats/credentials.ts';
import { createDeviceRequest } from './dc-request.ts';
import { encodeBase64Url } from '../keys.ts';
import { ecJwkToCoseKey } from '../formats/cose-keys.ts';
import { createDcapiSessionTranscript } from '../formats/session-transcript.ts';
import { mdocContext } from '../formats/mdoc-context.ts';
import { dcRequestParameters, type Oid4vpDcMaterial } from './oid4vp-dc-request.ts';
import { ANSWER_JWE_ENCS, OID4VP_DC_API_SIGNED_PROTOCOL } from '../profile.ts';
import { REQUEST_OBJECT_TYP } from './request-object.ts';
import type { SignedDcRequests } from '../../store/store.ts';

export type { Oid4vpSignedDcRequest };

/** What the store keeps of the requests signed for one page (its shape is the store's). */
export type { SignedDcRequests };

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

/** The signed request object's payload (OpenID4VP 1.0 §A.3.2): every unsigned parameter, client_id, expected_origins. */
export function signedDcRequestPayload(
  clientId: string,
  origin: string,
  material: Pick<Oid4vpDcMaterial, 'nonce' | 'publicJwk'>,
  dcqlQuery: DcqlQuery,
  issuedAt: number,
): Record<string, unknown> {
  return {
    iat: Math.floor(issuedAt / 1000),
    client_id: clientId,
    expected_origins: [origin],
    ...dcRequestParameters(material, dcqlQuery, ANSWER_JWE_ENCS),
  };
}

/**
 * The DeviceRequest for `kinds` and `scopes` (dc-request.ts createDeviceRequest) with each
 * DocRequest's readerAuth signed by the access key over `encryptionInfo` and `origin`'s transcript.
 *
 * @example const deviceRequest = await createReaderAuthDeviceRequest(access, kinds, scopes, encryptionInfo, origin)
 */
export async function createReaderAuthDeviceRequest(
  access: AccessCertificate,
  kinds: readonly CredentialKind[],
  scopes: readonly WalletScope[],
  encryptionInfo: string,
  origin: string,
): Promise<DeviceRequest> {
  const sessionTranscript = createDcapiSessionTranscript(encryptionInfo, origin);
  const signingKey = ecJwkToCoseKey(access.privateJwk);
  const x5chain = access.chain.length === 1 ? access.chain[0]! : [...access.chain];
  const docRequests = await Promise.all(
    createDeviceRequest(kinds, scopes).docRequests.map(async ({ itemsRequest }) => {
      const readerAuth = await ReaderAuth.create(
        {
          protectedHeaders: ProtectedHeaders.create({
            protectedHeaders: new Map([[Header.Algorithm, SignatureAlgorithm.ES256]]),
          }),
          unprotectedHeaders: UnprotectedHeaders.create({ unprotectedHeaders: new Map([[Header.X5Chain, x5chain]]) }),
          detachedPayload: readerAuthenticationBytes(sessionTranscript, itemsRequest),
          signingKey,
        },
        mdocContext,
      );
      return DocRequest.create({ itemsRequest, readerAuth });
    }),
  );
  return DeviceRequest.create({ docRequests });
}

/**
 * Both signed requests for one page origin.
 *
 * @example const signed = await createSignedDcRequests(access, { origin, oid4vpDc, dcqlQuery, encryptionInfo, kinds, scopes, now })
 */
export async function createSignedDcRequests(
  access: AccessCertificate,
  input: {
    origin: string;
    oid4vpDc: Pick<Oid4vpDcMaterial, 'nonce' | 'publicJwk'>;
    dcqlQuery: DcqlQuery;
    encryptionInfo: string;
    kinds: readonly CredentialKind[];
    scopes: readonly WalletScope[];
    now: number;
  },
): Promise<SignedDcRequests> {
  const payload = signedDcRequestPayload(access.clientId, input.origin, input.oid4vpDc, input.dcqlQuery, input.now);
  const request = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', typ: REQUEST_OBJECT_TYP, x5c: [...access.x5c] })
    .sign(await importJWK(access.privateJwk, 'ES256'));
  const deviceRequest = await createReaderAuthDeviceRequest(
    access,
    input.kinds,
    input.scopes,
    input.encryptionInfo,
    input.origin,
  );
  return { origin: input.origin, request, deviceRequest: encodeBase64Url(deviceRequest.encode()) };
}

/** The openid4vp-v1-signed entry of `dc_requests`. */
export function signedDcRequestOf(signed: Pick<SignedDcRequests, 'request'>): Oid4vpSignedDcRequest {
  return { protocol: OID4VP_DC_API_SIGNED_PROTOCOL, data: { request: signed.request } };
}
