import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { toPartnerRecord } from './partners.ts';

const blind = {
  id: 'pk_test_private',
  secret: Buffer.alloc(32, 1).toString('base64'),
  name: 'Private',
  domain: 'http://localhost:8788',
  rail: 'adult_blind' as const,
  blind_app_id: 'app_private',
};

describe('partner fixtures', () => {
  it('opt an adult_blind partner in to private attestations with "attestation": "private", and keep JWS otherwise', () => {
    expect(toPartnerRecord({ ...blind, attestation: 'private' }, 0).attestation).toBe('private');
    expect(toPartnerRecord({ ...blind, attestation: 'jws' }, 0).attestation).toBeUndefined();
    expect(toPartnerRecord(blind, 0).attestation).toBeUndefined();
  });

  it('refuse another attestation value, and private attestations on the standard rail', () => {
    expect(() => toPartnerRecord({ ...blind, attestation: 'blind' as 'jws' }, 0)).toThrow(ConfigError);
    expect(() => toPartnerRecord({ ...blind, rail: 'standard', attestation: 'private' }, 0)).toThrow(
      /attestation private needs the adult_blind rail/,
    );
  });
});
