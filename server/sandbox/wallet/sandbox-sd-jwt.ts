/**
 * The sandbox's SD-JWT VC PID (design.md §15): issued with @sd-jwt/sd-jwt-vc's own issuer under the
 * sandbox DS key and certificate (fixtures/wallet/), bound to a holder key (`cnf.jwk`), with a
 * `status.status_list` reference when given; presented by the holder with a KB-JWT for a request.
 * Separate from the mdoc issuer (sandbox-issuer.ts), which it only borrows keys from.
 */
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { randomBytes } from 'node:crypto';
import type { Persona } from '../../../src/protocol/sandbox.ts';
import { ALPHA2_TO_ALPHA3 } from '../../rules/country-codes.ts';
import { type EcJwk, toPublicEcJwk } from '../../wallet/keys.ts';
import { PID_VCT } from '../../wallet/formats/sd-jwt.ts';
import { type StatusReference } from '../../wallet/trust/status-list.ts';
import { personaClaims, personaFacts } from '../personas.ts';
import type { SandboxIssuer } from './sandbox-issuer.ts';

/** The sandbox PID issuer's `iss`. */
export const SANDBOX_PID_ISSUER = 'https://issuer.sandbox.svc.invalid';

/** How long an issued sandbox PID is valid. */
export const SANDBOX_PID_VALIDITY_SECONDS = 365 * 24 * 3600;

/** What a PID carries here: each selectively disclosable (design.md §15's DCQL paths). */
export interface PidClaims {
  /** YYYY-MM-DD */
  birthdate?: string;
  /** `{"18": true}`: PIDs under rulebook 1.0; absent from 1.1 on */
  age_equal_or_over?: Record<string, boolean>;
  /** ISO 3166-1 alpha-2 */
  nationalities?: string[];
  given_name?: string;
  family_name?: string;
}

const ALPHA3_TO_ALPHA2 = new Map(Object.entries(ALPHA2_TO_ALPHA3).map(([alpha2, alpha3]) => [alpha3, alpha2]));

/**
 * A persona's PID claims on `now`: the birth date and the nationalities (alpha-2), and with
 * `withAge` (a rulebook 1.0 PID) `age_equal_or_over.18` from the birth date.
 *
 * @example personaPidClaims(persona, now) // { birthdate: '1992-03-14', nationalities: ['FR'] }
 */
export function personaPidClaims(persona: Persona, now: number, options: { withAge?: boolean } = {}): PidClaims {
  const claims = personaClaims(persona, now);
  const nationalities = claims.nationalities.map((alpha3) => {
    const alpha2 = ALPHA3_TO_ALPHA2.get(alpha3);
    if (!alpha2) throw new Error(`no ISO 3166-1 alpha-2 code for ${alpha3}`);
    return alpha2;
  });
  return {
    birthdate: claims.birthdate,
    nationalities,
    ...(options.withAge ? { age_equal_or_over: { '18': personaFacts(persona, now).isAdult === true } } : {}),
  };
}

/** 128-bit salts (RFC 9901 §4.2.1 recommends at least that; the library's generateSalt gives 64). */
const saltGenerator = (): string => randomBytes(16).toString('base64url');

function x5cOf(issuer: SandboxIssuer): string[] {
  return issuer.x5chain.map((der) => Buffer.from(der).toString('base64'));
}

/**
 * Issues a PID as an SD-JWT VC (`<issuer JWT>~<disclosure>~…~`), every claim disclosable on its
 * own and, within `age_equal_or_over`, each age.
 *
 * @example const pid = await issuePidSdJwt({ issuer: loadSandboxIssuer(), holderKey, claims, now })
 */
export async function issuePidSdJwt(input: {
  issuer: SandboxIssuer;
  /** the holder's public key, as `cnf.jwk` */
  holderKey: EcJwk;
  claims: PidClaims;
  /** ms since the epoch */
  now: number;
  vct?: string;
  status?: StatusReference;
  validitySeconds?: number;
  /** the header's `typ` (default dc+sd-jwt); a negative test's other value */
  typ?: string;
}): Promise<string> {
  const instance = new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator,
    signer: await ES256.getSigner({ ...input.issuer.dsKey }),
    signAlg: 'ES256',
  });
  const iat = Math.floor(input.now / 1000);
  const { claims } = input;
  const frame: Record<string, unknown> = { _sd: Object.keys(claims).filter((k) => k !== 'age_equal_or_over') };
  if (claims.age_equal_or_over) {
    (frame._sd as string[]).push('age_equal_or_over');
    frame.age_equal_or_over = { _sd: Object.keys(claims.age_equal_or_over) };
  }
  return instance.issue(
    {
      iss: SANDBOX_PID_ISSUER,
      vct: input.vct ?? PID_VCT,
      iat,
      exp: iat + (input.validitySeconds ?? SANDBOX_PID_VALIDITY_SECONDS),
      cnf: { jwk: toPublicEcJwk(input.holderKey) },
      ...(input.status ? { status: { status_list: input.status } } : {}),
      ...claims,
    },
    frame as never,
    { header: { x5c: x5cOf(input.issuer), ...(input.typ ? { typ: input.typ } : {}) } },
  );
}

/**
 * The holder's presentation of an issued PID for one request: only the claims named in
 * `disclose` (top-level names; `age_equal_or_over` discloses its `18`), and a KB-JWT signed with
 * the holder's private key over `nonce`, `aud` and `iat` = `now`.
 *
 * @example const vp = await presentPidSdJwt({ credential: pid, holderKey, disclose: ['birthdate'], nonce, audience, now })
 */
export async function presentPidSdJwt(input: {
  credential: string;
  /** the holder's private key */
  holderKey: EcJwk;
  disclose: readonly (keyof PidClaims)[];
  nonce: string;
  audience: string;
  /** ms since the epoch */
  now: number;
}): Promise<string> {
  const instance = new SDJwtVcInstance({
    hasher: digest,
    kbSigner: await ES256.getSigner({ ...input.holderKey }),
    kbSignAlg: 'ES256',
  });
  const frame: Record<string, unknown> = {};
  for (const name of input.disclose) frame[name] = name === 'age_equal_or_over' ? { '18': true } : true;
  return instance.present(input.credential, frame as never, {
    kb: { payload: { iat: Math.floor(input.now / 1000), aud: input.audience, nonce: input.nonce } },
  });
}
