/**
 * The credentials client proof mode accepts (design.md §11, §13), what each one proves, and what a
 * request asks of each: the DCQL query of a wallet link, the DocRequests of an Annex C request,
 * and the reading of the elements a presented document disclosed into facts (the one facts rule,
 * rules/facts.ts).
 *
 * | kind  | doctype                   | namespace                 | elements                                   |
 * | ----- | ------------------------- | ------------------------- | ------------------------------------------ |
 * | `av`  | `eu.europa.ec.av.1`       | `eu.europa.ec.av.1`       | `age_over_18`                              |
 * | `pid` | `eu.europa.ec.eudi.pid.1` | `eu.europa.ec.eudi.pid.1` | `age_over_18`, `birth_date`, `nationality` |
 * | `mdl` | `org.iso.18013.5.1.mDL`   | `org.iso.18013.5.1`       | `age_over_18`, `birth_date`, `nationality` |
 *
 * isAdult ← `age_over_18`, or, in a credential without it (the PID since rulebook 1.1), `birth_date`
 * by the 18-today rule at the verification time (design.md §12, §15): DCQL asks both through
 * `claim_sets`, the age claim first. Only the boolean leaves this module: the date is never kept.
 * isFrench and isEU ← `nationality` (ISO 3166-1 alpha-2: an array in a PID, a string in an mDL,
 * where it is optional; either form is accepted from both). isUnique is not provable by these
 * credentials: they carry no unlinkable per-site identifier. The PID as an SD-JWT VC (`pid_sd`,
 * design.md §15) is asked after these wherever the mdoc PID is (pidSdJwtQueryFor) and verified by
 * sd-jwt.ts: its claims are `age_equal_or_over.18`, `birthdate` and `nationalities`.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 14. @openid4vc/openid4vp 0.4.6 checks a DCQL query's shape, `claim_sets` included, but cannot see
 *    inside an mdoc presentation, so nothing says a presentation satisfies one of the claim sets
 *    → readFacts (credentials.ts) reads only the elements of the sets asked, and a scope left
 *    unproven (neither age_over_18 nor birth_date disclosed) fails the request as `claims_missing`.
 */
import type { DcqlQuery, WalletCredential } from '../../../src/protocol/wire.ts';
import type { Scope } from '../../../src/protocol/scopes.ts';
import {
  factsFromClaims,
  InvalidClaimError,
  pickFacts,
  type IdentityClaims,
  type ProvenFacts,
} from '../../rules/facts.ts';
import { type BirthDateProblem, readFullDate } from './full-date.ts';
import { AV_CLAIM, AV_DOCTYPE, AV_NAMESPACE, CREDENTIAL_QUERY_ID } from '../profile.ts';

/** The mdoc credentials, in the order a request lists them (the wire's WalletCredential but the SD-JWT PID). */
export const CREDENTIAL_KINDS = ['av', 'pid', 'mdl'] as const satisfies readonly WalletCredential[];
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/**
 * The EU PID as an SD-JWT VC (design.md §15): its DCQL query id, the `vct` asked, and its claims by
 * the scope they prove. Asked after the mdoc PID and the mDL wherever the mdoc PID is.
 */
export const PID_SD_QUERY_ID = 'pid_sd' as const satisfies WalletCredential;
export const PID_SD_VCT_VALUES: readonly string[] = ['urn:eudi:pid:1'];
export type PresentedCredential = CredentialKind | typeof PID_SD_QUERY_ID;

/**
 * The credential formats a request may ask (design.md §19): `all` (every credential of the table
 * and the SD-JWT VC PID), or one alone: `mso_mdoc` (the mdocs) or `dc+sd-jwt` (the SD-JWT VC PID).
 */
export const WALLET_FORMATS = ['all', 'mso_mdoc', 'dc+sd-jwt'] as const;
export type WalletFormats = (typeof WALLET_FORMATS)[number];
export type WalletFormat = Exclude<WalletFormats, 'all'>;

/**
 * What a request may ask: the operator's SVC_WALLET_FORMATS narrowed by the partner's
 * `wallet_formats` (null: the operator's); null when nothing is left (the wallet is not offered).
 *
 * @example allowedWalletFormats('all', 'dc+sd-jwt') // 'dc+sd-jwt'; ('mso_mdoc', 'dc+sd-jwt') → null
 */
export function allowedWalletFormats(
  operator: WalletFormats,
  partner: WalletFormat | null | undefined,
): WalletFormats | null {
  if (!partner) return operator;
  return operator === 'all' || operator === partner ? partner : null;
}

/**
 * The DCQL credential query ids `kinds` stand for under `formats`: the mdocs unless `dc+sd-jwt`
 * alone, then the SD-JWT VC PID wherever the mdoc PID is unless `mso_mdoc` alone.
 *
 * @example askedCredentials(['pid', 'mdl'], 'dc+sd-jwt') // ['pid_sd']
 */
export function askedCredentials(
  kinds: readonly CredentialKind[],
  formats: WalletFormats = 'all',
): PresentedCredential[] {
  const mdocs: PresentedCredential[] = formats === 'dc+sd-jwt' ? [] : [...kinds];
  return formats !== 'mso_mdoc' && kinds.includes('pid') ? [...mdocs, PID_SD_QUERY_ID] : mdocs;
}

/** The scopes a wallet can prove. */
export const WALLET_PROVABLE_SCOPES = ['isAdult', 'isFrench', 'isEU'] as const;
export type WalletScope = (typeof WALLET_PROVABLE_SCOPES)[number];

/** The data elements this verifier reads, in the order it asks for them. */
export type ElementName = typeof AV_CLAIM | typeof BIRTH_DATE | 'nationality';

/** The PID's and the mDL's date of birth (full-date): isAdult when `age_over_18` is absent (design.md §15). */
export const BIRTH_DATE = 'birth_date';

export const PID_DOCTYPE = 'eu.europa.ec.eudi.pid.1';
export const PID_NAMESPACE = 'eu.europa.ec.eudi.pid.1';
export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
export const MDL_NAMESPACE = 'org.iso.18013.5.1';

export interface CredentialProfile {
  /** the DCQL credential query id: what `vp_token` keys its presentation by */
  queryId: string;
  docType: string;
  namespace: string;
  /** the elements it carries that prove a scope */
  elements: readonly ElementName[];
}

export const CREDENTIALS: Readonly<Record<CredentialKind, CredentialProfile>> = {
  av: { queryId: CREDENTIAL_QUERY_ID, docType: AV_DOCTYPE, namespace: AV_NAMESPACE, elements: [AV_CLAIM] },
  pid: {
    queryId: 'pid',
    docType: PID_DOCTYPE,
    namespace: PID_NAMESPACE,
    elements: [AV_CLAIM, BIRTH_DATE, 'nationality'],
  },
  mdl: {
    queryId: 'mdl',
    docType: MDL_DOCTYPE,
    namespace: MDL_NAMESPACE,
    elements: [AV_CLAIM, BIRTH_DATE, 'nationality'],
  },
};

/** Every namespace and element name of the table: the only names a log line may carry. */
export type KnownNamespace = typeof AV_NAMESPACE | typeof PID_NAMESPACE | typeof MDL_NAMESPACE;

const ELEMENT_OF_SCOPE: Readonly<Record<WalletScope, ElementName>> = {
  isAdult: AV_CLAIM,
  isFrench: 'nationality',
  isEU: 'nationality',
};

export function isWalletScope(scope: Scope): scope is WalletScope {
  return (WALLET_PROVABLE_SCOPES as readonly string[]).includes(scope);
}

/**
 * True when a wallet can prove every one of `scopes` (and there is at least one).
 *
 * @example isWalletProvable(['isAdult', 'isFrench']) // true; ['isAdult', 'isUnique'] → false
 */
export function isWalletProvable(scopes: readonly Scope[]): scopes is readonly WalletScope[] {
  return scopes.length > 0 && scopes.every(isWalletScope);
}

/**
 * True for exactly `[isAdult]`: the EU age-verification profile's request (the `av://` link and
 * its DCQL, design.md §11), unchanged whatever else a wallet could answer.
 */
export function isAgeVerificationRequest(scopes: readonly WalletScope[]): boolean {
  return scopes.length === 1 && scopes[0] === 'isAdult';
}

/**
 * The elements that prove `scopes`, each once, in the table's order.
 *
 * @example elementsFor(['isEU', 'isFrench']) // ['nationality']
 */
export function elementsFor(scopes: readonly WalletScope[]): ElementName[] {
  const wanted = new Set(scopes.map((scope) => ELEMENT_OF_SCOPE[scope]));
  return ([AV_CLAIM, 'nationality'] as const).filter((element) => wanted.has(element));
}

/**
 * The credentials that can prove every one of `scopes`, in the table's order.
 *
 * @example credentialsFor(['isAdult']) // ['av', 'pid', 'mdl']; ['isFrench'] → ['pid', 'mdl']
 */
export function credentialsFor(scopes: readonly WalletScope[]): CredentialKind[] {
  const elements = elementsFor(scopes);
  return CREDENTIAL_KINDS.filter((kind) => elements.every((element) => CREDENTIALS[kind].elements.includes(element)));
}

/** The credential a DCQL query id stands for, or null. */
export function credentialOfQueryId(queryId: string): CredentialKind | null {
  return CREDENTIAL_KINDS.find((kind) => CREDENTIALS[kind].queryId === queryId) ?? null;
}

/** The credential of a docType, or null. */
export function credentialOfDocType(docType: string): CredentialKind | null {
  return CREDENTIAL_KINDS.find((kind) => CREDENTIALS[kind].docType === docType) ?? null;
}

/** A DCQL query (OpenID4VP 1.0 §6; the wire type): the elements or claims asked, by path. */
export type { DcqlQuery };
type DcqlCredentialQuery = DcqlQuery['credentials'][number];

/** The DCQL claim ids of design.md §15, when a credential query has `claim_sets`. */
const CLAIM_ID: Readonly<Record<ElementName, string>> = { [AV_CLAIM]: 'age', [BIRTH_DATE]: 'bd', nationality: 'nat' };

/**
 * True when `kind` is asked isAdult with `birth_date` as the alternative to `age_over_18`: the
 * scopes hold isAdult and the credential carries a birth date (the PID, the mDL; not the AV mdoc).
 */
export function asksBirthDate(kind: CredentialKind, scopes: readonly WalletScope[]): boolean {
  return scopes.includes('isAdult') && CREDENTIALS[kind].elements.includes(BIRTH_DATE);
}

/**
 * Every element `kind` may disclose for `scopes`: those elementsFor names, and `birth_date` where
 * asksBirthDate. Only these are ever read from a presentation.
 *
 * @example elementsAskedOf('pid', ['isAdult', 'isFrench']) // ['age_over_18', 'birth_date', 'nationality']
 */
export function elementsAskedOf(kind: CredentialKind, scopes: readonly WalletScope[]): ElementName[] {
  const primary = elementsFor(scopes);
  return asksBirthDate(kind, scopes)
    ? ([AV_CLAIM, BIRTH_DATE, 'nationality'] as const).filter((e) => e === BIRTH_DATE || primary.includes(e))
    : primary;
}

/**
 * One credential query: the elements `scopes` need by path and, where `birth_date` stands in for
 * `age_over_18`, the claim ids and `claim_sets` of design.md §15, the age claim first (a wallet
 * discloses the first set it can satisfy, OpenID4VP 1.0 §6.4.1).
 *
 * @example JSON.stringify(credentialQueryFor('pid', ['isAdult', 'isFrench']))
 * // {"id":"pid","format":"mso_mdoc","meta":{…},"claims":[{"id":"age","path":[ns,"age_over_18"]},
 * //  {"id":"bd","path":[ns,"birth_date"]},{"id":"nat","path":[ns,"nationality"]}],"claim_sets":[["age","nat"],["bd","nat"]]}
 */
export function credentialQueryFor(kind: CredentialKind, scopes: readonly WalletScope[]): DcqlCredentialQuery {
  const { queryId, docType, namespace } = CREDENTIALS[kind];
  const head = { id: queryId, format: 'mso_mdoc' as const, meta: { doctype_value: docType } };
  if (!asksBirthDate(kind, scopes))
    return { ...head, claims: elementsFor(scopes).map((element) => ({ path: [namespace, element] })) };
  const elements = elementsAskedOf(kind, scopes);
  const others = elements.filter((e) => e !== AV_CLAIM && e !== BIRTH_DATE).map((e) => CLAIM_ID[e]);
  return {
    ...head,
    claims: elements.map((element) => ({ id: CLAIM_ID[element], path: [namespace, element] })),
    claim_sets: [
      [CLAIM_ID[AV_CLAIM], ...others],
      [CLAIM_ID[BIRTH_DATE], ...others],
    ],
  };
}

/**
 * The DCQL query asking each of `kinds` for exactly the elements `scopes` need (credentialQueryFor),
 * and, with more than one, a credential set saying that any one of them will do (design.md §13);
 * of the `formats` allowed only (design.md §19).
 *
 * @example JSON.stringify(dcqlQueryFor(['pid', 'mdl'], ['isFrench']))
 * // {"credentials":[{"id":"pid",…,"claims":[{"path":["eu.europa.ec.eudi.pid.1","nationality"]}]},{"id":"mdl",…}],
 * //  "credential_sets":[{"options":[["pid"],["mdl"]]}]}
 */
export function dcqlQueryFor(
  kinds: readonly CredentialKind[],
  scopes: readonly WalletScope[],
  formats: WalletFormats = 'all',
): DcqlQuery {
  const credentials = askedCredentials(kinds, formats).map((id) =>
    id === PID_SD_QUERY_ID ? pidSdJwtQueryFor(scopes) : credentialQueryFor(id, scopes),
  );
  if (credentials.length < 2) return { credentials };
  return { credentials, credential_sets: [{ options: credentials.map((credential) => [credential.id]) }] };
}

/**
 * The SD-JWT VC PID's credential query (design.md §15), asked wherever the mdoc PID is: isAdult
 * from `age_equal_or_over.18`, else `birthdate` (`claim_sets`, the age claim first, as
 * credentialQueryFor), isFrench and isEU from `nationalities`.
 *
 * @example JSON.stringify(pidSdJwtQueryFor(['isAdult', 'isFrench']))
 * // {"id":"pid_sd","format":"dc+sd-jwt","meta":{"vct_values":["urn:eudi:pid:1"]},"claims":[{"id":"age",
 * //  "path":["age_equal_or_over","18"]},{"id":"bd","path":["birthdate"]},{"id":"nat","path":["nationalities"]}],
 * //  "claim_sets":[["age","nat"],["bd","nat"]]}
 */
export function pidSdJwtQueryFor(scopes: readonly WalletScope[]): DcqlCredentialQuery {
  const head = { id: PID_SD_QUERY_ID, format: 'dc+sd-jwt' as const, meta: { vct_values: [...PID_SD_VCT_VALUES] } };
  const nationality = elementsFor(scopes).includes('nationality');
  if (!scopes.includes('isAdult')) return { ...head, claims: nationality ? [{ path: ['nationalities'] }] : [] };
  const others = nationality ? ['nat'] : [];
  return {
    ...head,
    claims: [
      { id: 'age', path: ['age_equal_or_over', '18'] },
      { id: 'bd', path: ['birthdate'] },
      ...(nationality ? [{ id: 'nat', path: ['nationalities'] }] : []),
    ],
    claim_sets: [
      ['age', ...others],
      ['bd', ...others],
    ],
  };
}

/**
 * `vp_formats_supported` (OpenID4VP 1.0 §11.1, Appendix B) for the formats a DCQL query asks, with
 * the only algorithms this verifier checks (design.md §19): ES256, COSE -7 for mdocs.
 *
 * @example vpFormatsSupportedOf(dcqlQueryFor(['pid'], ['isFrench'], 'mso_mdoc'))
 * // { mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] } }
 */
export function vpFormatsSupportedOf(query: DcqlQuery): Record<string, Record<string, (string | number)[]>> {
  const formats = new Set(query.credentials.map((credential) => credential.format));
  return {
    ...(formats.has('mso_mdoc') ? { mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] } } : {}),
    ...(formats.has('dc+sd-jwt')
      ? { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } }
      : {}),
  };
}

/** One issuer-signed element as the verifier sees it once the issuer's digests held. */
export interface DisclosedElement {
  elementIdentifier: string;
  elementValue: unknown;
}

/** What reading the disclosed elements can say (a closed set: no credential text). */
export type ElementProblem =
  | 'a requested element is disclosed more than once'
  | 'age_over_18 is not a boolean'
  | BirthDateProblem
  | 'age_over_18 contradicts birth_date'
  | 'nationality is not an alpha-2 code or a list of them'
  | 'nationality is not an ISO 3166-1 country';

const ALPHA2 = /^[A-Z]{2}$/;

function readNationalities(value: unknown): string[] | null {
  const codes = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as unknown[]) : null;
  if (codes === null || !codes.every((code): code is string => typeof code === 'string' && ALPHA2.test(code)))
    return null;
  return codes;
}

/**
 * The facts the requested elements of one issuer-signed namespace of `kind` prove for `scopes`:
 * only the elements asked (elementsAskedOf) are read (any other is ignored, never kept), an element
 * not disclosed leaves its facts out (the caller decides what a missing fact means), and a
 * requested element that is repeated or of the wrong type is a problem. isAdult comes from
 * `age_over_18`, else from `birth_date` by the 18-today rule at `now` (rules/facts.ts); both
 * disclosed must agree (a credential contradicting itself proves nothing). The birth date is read
 * into a local and dropped: only the facts of `scopes` are returned (pickFacts).
 *
 * @example readFacts(items, 'pid', ['isFrench'], now) // { facts: { isFrench: true } }
 */
export function readFacts(
  items: readonly DisclosedElement[],
  kind: CredentialKind,
  scopes: readonly WalletScope[],
  now: number,
): { facts: ProvenFacts } | { problem: ElementProblem } {
  const claims: IdentityClaims = {};
  for (const element of elementsAskedOf(kind, scopes)) {
    const found = items.filter((item) => item.elementIdentifier === element);
    if (found.length > 1) return { problem: 'a requested element is disclosed more than once' };
    if (found.length === 0) continue;
    const value = found[0]!.elementValue;
    if (element === AV_CLAIM) {
      if (typeof value !== 'boolean') return { problem: 'age_over_18 is not a boolean' };
      claims.age_over_18 = value;
    } else if (element === BIRTH_DATE) {
      const read = readFullDate(value);
      if ('problem' in read) return { problem: read.problem };
      claims.birthdate = read.date;
    } else {
      const nationalities = readNationalities(value);
      if (nationalities === null) return { problem: 'nationality is not an alpha-2 code or a list of them' };
      claims.nationalities = nationalities;
    }
  }
  try {
    return { facts: pickFacts(factsFromClaims(claims, now), scopes) };
  } catch (error) {
    if (!(error instanceof InvalidClaimError)) throw error;
    const problems: Partial<Record<string, ElementProblem>> = {
      nationalities: 'nationality is not an ISO 3166-1 country',
      age_over_18: 'age_over_18 contradicts birth_date',
    };
    return { problem: problems[error.claim] ?? 'birth_date is not a full-date' };
  }
}
