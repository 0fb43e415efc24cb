import { describe, expect, it } from 'vitest';
import { WALLET_CREDENTIAL_OF_QUERY_ID } from '../../../src/protocol/wire.ts';
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
  PID_SD_QUERY_ID,
  pidSdJwtQueryFor,
  readFacts,
} from './credentials.ts';
import { NOW } from '../test-helpers.ts';

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
    expect({
      ...Object.fromEntries(CREDENTIAL_KINDS.map((kind) => [CREDENTIALS[kind].queryId, kind])),
      [PID_SD_QUERY_ID]: PID_SD_QUERY_ID,
    }).toEqual(WALLET_CREDENTIAL_OF_QUERY_ID);
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
    expect(dcqlQueryFor(['pid', 'mdl'], ['isEU']).credential_sets).toEqual([
      { options: [['pid'], ['mdl'], ['pid_sd']] },
    ]);
  });

  it('asks the SD-JWT VC PID after the mdoc PID and the mDL wherever the mdoc PID is asked (design.md §15)', () => {
    const query = dcqlQueryFor(['pid', 'mdl'], ['isAdult', 'isFrench']);
    expect(query.credentials.map((c) => c.id)).toEqual(['pid', 'mdl', 'pid_sd']);
    expect(JSON.stringify(query.credentials[2])).toBe(
      '{"id":"pid_sd","format":"dc+sd-jwt","meta":{"vct_values":["urn:eudi:pid:1"]},' +
        '"claims":[{"id":"age","path":["age_equal_or_over","18"]},{"id":"bd","path":["birthdate"]},' +
        '{"id":"nat","path":["nationalities"]}],"claim_sets":[["age","nat"],["bd","nat"]]}',
    );
    expect(pidSdJwtQueryFor(['isAdult']).claim_sets).toEqual([['age'], ['bd']]);
    expect(pidSdJwtQueryFor(['isEU'])).toEqual({
      id: 'pid_sd',
      format: 'dc+sd-jwt',
      meta: { vct_values: ['urn:eudi:pid:1'] },
      claims: [{ path: ['nationalities'] }],
    });
    expect(dcqlQueryFor(['av'], ['isAdult']).credentials.map((c) => c.id)).toEqual(['proof_of_age']);
  });
});

describe('readFacts: the requested elements into facts', () => {
  it('reads a French adult from a PID: isAdult, isFrench and isEU all true', () => {
    const items = [item('age_over_18', true), item('nationality', ['FR'])];
    expect(readFacts(items, 'pid', ['isAdult', 'isFrench', 'isEU'], NOW)).toEqual({
      facts: { isAdult: true, isFrench: true, isEU: true },
    });
  });

  it('reads a German: isFrench false, isEU true', () => {
    expect(readFacts([item('nationality', ['DE'])], 'pid', ['isFrench', 'isEU'], NOW)).toEqual({
      facts: { isFrench: false, isEU: true },
    });
  });

  it('reads two nationalities: French through either of them', () => {
    expect(readFacts([item('nationality', ['US', 'FR'])], 'pid', ['isFrench', 'isEU'], NOW)).toEqual({
      facts: { isFrench: true, isEU: true },
    });
  });

  it("accepts an mDL's single string as well as a PID's list", () => {
    expect(readFacts([item('nationality', 'FR')], 'pid', ['isFrench'], NOW)).toEqual({ facts: { isFrench: true } });
  });

  it('leaves a fact out when its element was not disclosed (the request then fails: claims_missing)', () => {
    expect(readFacts([item('age_over_18', true)], 'pid', ['isAdult', 'isFrench'], NOW)).toEqual({
      facts: { isAdult: true },
    });
    expect(readFacts([item('nationality', [])], 'pid', ['isFrench'], NOW)).toEqual({ facts: {} });
  });

  it('ignores every element not requested, whatever it holds', () => {
    const items = [item('nationality', 42), item('birth_date', 'not a date'), item('age_over_18', true)];
    // The proof of age is never asked a birth date; the PID is not asked its nationality here.
    expect(readFacts(items, 'av', ['isAdult'], NOW)).toEqual({ facts: { isAdult: true } });
    expect(readFacts([item('nationality', 42), item('age_over_18', true)], 'pid', ['isAdult'], NOW)).toEqual({
      facts: { isAdult: true },
    });
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
      expect(readFacts(items, 'pid', scopes, NOW), JSON.stringify(items)).toHaveProperty('problem');
  });
});

describe('isAdult from age_over_18, else birth_date: DCQL claim_sets (design.md §15)', () => {
  const pidPath = (element: string) => ['eu.europa.ec.eudi.pid.1', element];
  const mdlPath = (element: string) => ['org.iso.18013.5.1', element];

  it('asks the PID and the mDL for [isAdult, isFrench] with the age claim first, the birth date otherwise, byte for byte', () => {
    const query = dcqlQueryFor(['pid', 'mdl'], ['isAdult', 'isFrench']);
    expect(JSON.stringify(query.credentials[0])).toBe(
      '{"id":"pid","format":"mso_mdoc","meta":{"doctype_value":"eu.europa.ec.eudi.pid.1"},' +
        '"claims":[{"id":"age","path":["eu.europa.ec.eudi.pid.1","age_over_18"]},' +
        '{"id":"bd","path":["eu.europa.ec.eudi.pid.1","birth_date"]},' +
        '{"id":"nat","path":["eu.europa.ec.eudi.pid.1","nationality"]}],' +
        '"claim_sets":[["age","nat"],["bd","nat"]]}',
    );
    expect(query.credentials[1]).toEqual({
      id: 'mdl',
      format: 'mso_mdoc',
      meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
      claims: [
        { id: 'age', path: mdlPath('age_over_18') },
        { id: 'bd', path: mdlPath('birth_date') },
        { id: 'nat', path: mdlPath('nationality') },
      ],
      claim_sets: [
        ['age', 'nat'],
        ['bd', 'nat'],
      ],
    });
    expect(query.credential_sets).toEqual([{ options: [['pid'], ['mdl'], ['pid_sd']] }]);
  });

  it('asks nat only when isFrench or isEU is asked', () => {
    expect(dcqlQueryFor(['pid'], ['isAdult']).credentials[0]).toMatchObject({
      claims: [
        { id: 'age', path: pidPath('age_over_18') },
        { id: 'bd', path: pidPath('birth_date') },
      ],
      claim_sets: [['age'], ['bd']],
    });
    expect(dcqlQueryFor(['pid'], ['isAdult', 'isEU']).credentials[0]!.claim_sets).toEqual([
      ['age', 'nat'],
      ['bd', 'nat'],
    ]);
  });

  it('writes no claim_sets (and no claim ids) without isAdult, nor for the proof of age, which has no birth date', () => {
    expect(dcqlQueryFor(['pid'], ['isFrench', 'isEU']).credentials[0]).toEqual({
      id: 'pid',
      format: 'mso_mdoc',
      meta: { doctype_value: 'eu.europa.ec.eudi.pid.1' },
      claims: [{ path: pidPath('nationality') }],
    });
    const forAdults = dcqlQueryFor(['av', 'pid', 'mdl'], ['isAdult']);
    expect(forAdults.credentials[0]).toEqual({
      id: 'proof_of_age',
      format: 'mso_mdoc',
      meta: { doctype_value: 'eu.europa.ec.av.1' },
      claims: [{ path: ['eu.europa.ec.av.1', 'age_over_18'] }],
    });
    expect(forAdults.credentials.map((c) => c.claim_sets?.length ?? 0)).toEqual([0, 2, 2, 2]);
  });

  it('reads isAdult from the birth date when age_over_18 is not disclosed, and never returns the date', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const adult = readFacts(
      [item('birth_date', '2008-01-01'), item('nationality', ['FR'])],
      'pid',
      ['isAdult', 'isFrench'],
      now,
    );
    expect(adult).toEqual({ facts: { isAdult: true, isFrench: true } });
    expect(JSON.stringify(adult)).not.toMatch(/2008|birth/);
    expect(readFacts([item('birth_date', '2008-01-02')], 'mdl', ['isAdult'], now)).toEqual({
      facts: { isAdult: false },
    });
  });

  it('accepts both when they agree, and refuses a credential whose age_over_18 contradicts its birth date', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(readFacts([item('age_over_18', true), item('birth_date', '1990-05-05')], 'pid', ['isAdult'], now)).toEqual({
      facts: { isAdult: true },
    });
    expect(readFacts([item('age_over_18', false), item('birth_date', '1990-05-05')], 'pid', ['isAdult'], now)).toEqual({
      problem: 'age_over_18 contradicts birth_date',
    });
    expect(readFacts([item('age_over_18', true), item('birth_date', '2010-05-05')], 'pid', ['isAdult'], now)).toEqual({
      problem: 'age_over_18 contradicts birth_date',
    });
  });

  it('refuses a birth date that is not a date, or repeated', () => {
    for (const value of ['2007-02-29', '1990-13-01', '1990-1-5', '05/01/1990', '', 19900105, null, ['1990-01-05']])
      expect(readFacts([item('birth_date', value)], 'pid', ['isAdult'], NOW), String(value)).toEqual({
        problem: 'birth_date is not a full-date',
      });
    expect(
      readFacts([item('birth_date', '1990-01-05'), item('birth_date', '1990-01-05')], 'pid', ['isAdult'], NOW),
    ).toEqual({ problem: 'a requested element is disclosed more than once' });
  });
});
