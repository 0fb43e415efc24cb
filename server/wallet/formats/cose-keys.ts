/**
 * EC keys between JWK (Web Crypto, keys.ts) and COSE_Key (mdoc: device keys, DS keys, the reader
 * key of readerAuth), curves mapped by their COSE numbers.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 7. `CoseKey.fromJwk` / `CoseKey.jwk` spell P-384 and P-521 as "p-384" / "p-521", so keys on
 *    those curves (allowed for DS and device keys) fail either way → `ecJwkToCoseKey` and
 *    `coseKeyToEcJwk` map curves by their COSE numbers.
 */
import { CoseKey, Curve, KeyType } from '@owf/mdoc';
import { decodeBase64Url, type EcJwk, encodeBase64Url } from '../keys.ts';

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
