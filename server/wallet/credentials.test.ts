import { describe, expect, it } from 'vitest';
import { WALLET_CREDENTIAL_OF_QUERY_ID } from '../../src/protocol/api.ts';
import {
  CREDENTIAL_KINDS,
  credentialOfDocType,
  CREDENTIALS,
  credentialOfQueryId,
  credentialsFor,
  dcqlQueryFor,
  elementsFor,
  isAgeVerificationRequest,
  isWalletProvable,
  readFacts,
} from './credentials.ts';
import { NOW } from './test-helpers.ts';

const item = (elementIdentifier: string, elementValue: unknown) => ({ elementIdentifier, elementValue });

describe('which credentials prove which scopes (design.md §13)', () => {
  it('lets a wallet prove isAdult, isFrench and isEU, and nothing with isUnique or another scope', () => {
    expect(isWalletProvable(['isAdult'])).toBe(true);
    expect(isWalletProvable(['isAdult', 'isFrench', 'isEU'])).toBe(true);
    expect(isWalletProvable(['isAdult', 'isUnique'])).toBe(false);
    expect(isWalletProvable(['revealNationality'])).toBe(false);
    expect(isWalletProvable([])).toBe(false);
  });

  it('proves isAdult with all three credentials, a nationality scope with the PID or the mDL only', () => {
    expect(credentialsFor(['isAdult'])).toEqual(['av', 'pid', 'mdl']);
    expect(credentialsFor(['isFrench'])).toEqual(['pid', 'mdl']);
    expect(credentialsFor(['isAdult', 'isEU'])).toEqual(['pid', 'mdl']);
    expect(isAgeVerificationRequest(['isAdult'])).toBe(true);
    expect(isAgeVerificationRequest(['isAdult', 'isEU'])).toBe(false);
  });

  it('asks age_over_18 for isAdult and nationality once for isFrench and isEU', () => {
    expect(elementsFor(['isEU', 'isFrench'])).toEqual(['nationality']);
    expect(elementsFor(['isFrench', 'isAdult'])).toEqual(['age_over_18', 'nationality']);
  });

  it('keys each credential by the query id the wire names (src/protocol WALLET_CREDENTIAL_OF_QUERY_ID)', () => {
    expect(Object.fromEntries(CREDENTIAL_KINDS.map((kind) => [CREDENTIALS[kind].queryId, kind]))).toEqual(
      WALLET_CREDENTIAL_OF_QUERY_ID,
    );
  });

  it('knows each credential by its query id and its docType', () => {
    expect(credentialOfQueryId('proof_of_age')).toBe('av');
    expect(credentialOfQueryId('pid')).toBe('pid');
    expect(credentialOfQueryId('__proto__')).toBeNull();
    expect(credentialOfDocType('org.iso.18013.5.1.mDL')).toBe('mdl');
    expect(credentialOfDocType('eu.europa.ec.eudi.pid.1')).toBe('pid');
    expect(credentialOfDocType('org.iso.18013.5.1')).toBeNull();
  });

  it('writes one credential query without credential sets, several with one set of alternatives', () => {
    expect(dcqlQueryFor(['av'], ['isAdult'])).toEqual({
      credentials: [
        {
          id: 'proof_of_age',
          format: 'mso_mdoc',
          meta: { doctype_value: 'eu.europa.ec.av.1' },
          claims: [{ path: ['eu.europa.ec.av.1', 'age_over_18'] }],
        },
      ],
    });
    expect(dcqlQueryFor(['pid', 'mdl'], ['isEU']).credential_sets).toEqual([{ options: [['pid'], ['mdl']] }]);
  });
});

describe('readFacts: the requested elements into facts', () => {
  it('reads a French adult from a PID: isAdult, isFrench and isEU all true', () => {
    const items = [item('age_over_18', true), item('nationality', ['FR'])];
    expect(readFacts(items, ['isAdult', 'isFrench', 'isEU'], NOW)).toEqual({
      facts: { isAdult: true, isFrench: true, isEU: true },
    });
  });

  it('reads a German: isFrench false, isEU true', () => {
    expect(readFacts([item('nationality', ['DE'])], ['isFrench', 'isEU'], NOW)).toEqual({
      facts: { isFrench: false, isEU: true },
    });
  });

  it('reads two nationalities: French through either of them', () => {
    expect(readFacts([item('nationality', ['US', 'FR'])], ['isFrench', 'isEU'], NOW)).toEqual({
      facts: { isFrench: true, isEU: true },
    });
  });

  it("accepts an mDL's single string as well as a PID's list", () => {
    expect(readFacts([item('nationality', 'FR')], ['isFrench'], NOW)).toEqual({ facts: { isFrench: true } });
  });

  it('leaves a fact out when its element was not disclosed (the request then fails: claims_missing)', () => {
    expect(readFacts([item('age_over_18', true)], ['isAdult', 'isFrench'], NOW)).toEqual({ facts: { isAdult: true } });
    expect(readFacts([item('nationality', [])], ['isFrench'], NOW)).toEqual({ facts: {} });
  });

  it('ignores every element not requested, whatever it holds', () => {
    const items = [item('nationality', 42), item('birth_date', '1981-11-23'), item('age_over_18', true)];
    expect(readFacts(items, ['isAdult'], NOW)).toEqual({ facts: { isAdult: true } });
  });

  it('refuses a requested element that is repeated or of the wrong type', () => {
    const problems = [
      [[item('age_over_18', true), item('age_over_18', true)], ['isAdult']],
      [[item('age_over_18', 'true')], ['isAdult']],
      [[item('nationality', 250)], ['isFrench']],
      [[item('nationality', ['FRA'])], ['isEU']],
      [[item('nationality', ['fr'])], ['isEU']],
      [[item('nationality', [['FR']])], ['isEU']],
      [[item('nationality', ['ZZ'])], ['isEU']],
    ] as const;
    for (const [items, scopes] of problems)
      expect(readFacts(items, scopes, NOW), JSON.stringify(items)).toHaveProperty('problem');
  });
});
