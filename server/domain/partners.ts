/** Partner records: fixtures (sandbox) and validation shared with the CLI. */
import { readFileSync } from 'node:fs';
import { isScope, type Scope } from '../../src/protocol/scopes.ts';
import { ConfigError } from '../errors.ts';
import { isOrigin, isSecureOrLoopbackUrl } from '../rules/urls.ts';
import type { PartnerRecord } from '../store/store.ts';

export const PARTNER_ID_PATTERN = /^[A-Za-z0-9_]{1,64}$/;

interface PartnerFixture {
  id: string;
  secret: string;
  name: string;
  domain: string;
  rail: 'standard' | 'adult_blind';
  blind_app_id?: string;
  allowed_scopes?: string[];
  /** docs/adult-blind.md#private-attestations: `private` opts an adult_blind partner in, as `svc partners add --attestation private` */
  attestation?: 'private' | 'jws';
}

/**
 * Production's boot check of the stored partners (design.md §1): an enabled partner whose domain is
 * not https:// (loopback hosts excepted) is refused with one line saying how to fix it. A disabled
 * one can do nothing, and `svc partners enable` refuses to bring it back.
 *
 * @example refuseInsecurePartners(await store.listPartners())
 */
export function refuseInsecurePartners(partners: readonly PartnerRecord[]): void {
  const insecure = partners.find((partner) => !partner.disabledAt && !isSecureOrLoopbackUrl(partner.domain));
  if (insecure) {
    throw new ConfigError(
      `SVC_MODE=production requires https:// partner domains: partner ${insecure.id} has ${insecure.domain}; ` +
        `disable it (svc partners disable ${insecure.id}) and add it again with its https:// origin`,
    );
  }
}

export function toPartnerRecord(fixture: PartnerFixture, createdAt: number): PartnerRecord {
  const where = `partner ${JSON.stringify(fixture.id)}`;
  if (!PARTNER_ID_PATTERN.test(fixture.id ?? '')) throw new ConfigError(`${where}: id must match [A-Za-z0-9_]{1,64}`);
  if (Buffer.from(fixture.secret ?? '', 'base64').length < 32)
    throw new ConfigError(`${where}: secret must be base64 of 32 bytes`);
  if (!isOrigin(fixture.domain ?? ''))
    throw new ConfigError(`${where}: domain must be an origin like https://shop.example`);
  if (fixture.rail !== 'standard' && fixture.rail !== 'adult_blind')
    throw new ConfigError(`${where}: rail must be standard or adult_blind`);
  const scopes = fixture.allowed_scopes ?? null;
  if (scopes && !scopes.every(isScope)) throw new ConfigError(`${where}: allowed_scopes has an unknown scope`);
  if (fixture.attestation !== undefined && fixture.attestation !== 'private' && fixture.attestation !== 'jws')
    throw new ConfigError(`${where}: attestation must be private or jws`);
  if (fixture.attestation === 'private' && fixture.rail !== 'adult_blind')
    throw new ConfigError(`${where}: attestation private needs the adult_blind rail`);
  return {
    id: fixture.id,
    secret: fixture.secret,
    name: fixture.name ?? fixture.id,
    domain: fixture.domain,
    rail: fixture.rail,
    blindAppId: fixture.blind_app_id ?? null,
    allowedScopes: scopes as Scope[] | null,
    createdAt,
    ...(fixture.attestation === 'private' ? { attestation: 'private' as const } : {}),
  };
}

export function loadPartnerFixtures(path: string, now: number): PartnerRecord[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`SVC_FIXTURES: cannot read partners from ${path}: ${(cause as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new ConfigError(`SVC_FIXTURES: ${path} must hold a JSON array of partners`);
  return raw.map((p) => toPartnerRecord(p as PartnerFixture, now));
}
