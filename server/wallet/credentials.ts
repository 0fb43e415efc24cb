/**
 * The credentials client proof mode accepts (design.md §11, §13), what each one proves, and what a
 * request asks of each: the DCQL query of a wallet link, the DocRequests of an Annex C request,
 * and the reading of the elements a presented document disclosed into facts (the one facts rule,
 * domain/facts.ts).
 *
 * | kind  | doctype                   | namespace                 | elements                     |
 * | ----- | ------------------------- | ------------------------- | ---------------------------- |
 * | `av`  | `eu.europa.ec.av.1`       | `eu.europa.ec.av.1`       | `age_over_18`                |
 * | `pid` | `eu.europa.ec.eudi.pid.1` | `eu.europa.ec.eudi.pid.1` | `age_over_18`, `nationality` |
 * | `mdl` | `org.iso.18013.5.1.mDL`   | `org.iso.18013.5.1`       | `age_over_18`, `nationality` |
 *
 * isAdult ← `age_over_18`; isFrench and isEU ← `nationality` (ISO 3166-1 alpha-2: an array in a
 * PID, a string in an mDL, where it is optional; either form is accepted from both). isUnique is
 * not provable by these credentials: they carry no unlinkable per-site identifier.
 */
import type { DcqlQuery, WalletCredential } from '../../src/protocol/api.ts';
import type { Scope } from '../../src/protocol/scopes.ts';
import {
  factsFromClaims,
  InvalidClaimError,
  pickFacts,
  type IdentityClaims,
  type ProvenFacts,
} from '../domain/facts.ts';
import { AV_CLAIM, AV_DOCTYPE, AV_NAMESPACE, CREDENTIAL_QUERY_ID } from './profile.ts';

/** The credentials, in the order a request lists them (the wire's WalletCredential). */
export const CREDENTIAL_KINDS = ['av', 'pid', 'mdl'] as const satisfies readonly WalletCredential[];
export type CredentialKind = WalletCredential;

/** The scopes a wallet can prove. */
export const WALLET_PROVABLE_SCOPES = ['isAdult', 'isFrench', 'isEU'] as const;
export type WalletScope = (typeof WALLET_PROVABLE_SCOPES)[number];

/** The data elements this verifier reads, in the order it asks for them. */
export type ElementName = typeof AV_CLAIM | 'nationality';

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
  pid: { queryId: 'pid', docType: PID_DOCTYPE, namespace: PID_NAMESPACE, elements: [AV_CLAIM, 'nationality'] },
  mdl: { queryId: 'mdl', docType: MDL_DOCTYPE, namespace: MDL_NAMESPACE, elements: [AV_CLAIM, 'nationality'] },
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

/** A DCQL query for mdocs (OpenID4VP 1.0 §6; the wire type): the elements asked, by path. */
export type { DcqlQuery };
type DcqlCredentialQuery = DcqlQuery['credentials'][number];

/**
 * The DCQL query asking each of `kinds` for exactly the elements `scopes` need, and, with more
 * than one, a credential set saying that any one of them will do (design.md §13).
 *
 * @example JSON.stringify(dcqlQueryFor(['pid', 'mdl'], ['isFrench']))
 * // {"credentials":[{"id":"pid",…,"claims":[{"path":["eu.europa.ec.eudi.pid.1","nationality"]}]},{"id":"mdl",…}],
 * //  "credential_sets":[{"options":[["pid"],["mdl"]]}]}
 */
export function dcqlQueryFor(kinds: readonly CredentialKind[], scopes: readonly WalletScope[]): DcqlQuery {
  const elements = elementsFor(scopes);
  const credentials = kinds.map((kind): DcqlCredentialQuery => {
    const { queryId, docType, namespace } = CREDENTIALS[kind];
    return {
      id: queryId,
      format: 'mso_mdoc',
      meta: { doctype_value: docType },
      claims: elements.map((element) => ({ path: [namespace, element] })),
    };
  });
  if (credentials.length < 2) return { credentials };
  return { credentials, credential_sets: [{ options: credentials.map((credential) => [credential.id]) }] };
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
 * The facts the requested elements of one issuer-signed namespace prove for `scopes`: only the
 * elements those scopes need are read (any other is ignored, never kept), an element not
 * disclosed leaves its facts out (the caller decides what a missing fact means), and a requested
 * element that is repeated or of the wrong type is a problem.
 *
 * @example readFacts(items, ['isFrench'], now) // { facts: { isFrench: true } }
 */
export function readFacts(
  items: readonly DisclosedElement[],
  scopes: readonly WalletScope[],
  now: number,
): { facts: ProvenFacts } | { problem: ElementProblem } {
  const claims: IdentityClaims = {};
  for (const element of elementsFor(scopes)) {
    const found = items.filter((item) => item.elementIdentifier === element);
    if (found.length > 1) return { problem: 'a requested element is disclosed more than once' };
    if (found.length === 0) continue;
    const value = found[0]!.elementValue;
    if (element === AV_CLAIM) {
      if (typeof value !== 'boolean') return { problem: 'age_over_18 is not a boolean' };
      claims.age_over_18 = value;
    } else {
      const nationalities = readNationalities(value);
      if (nationalities === null) return { problem: 'nationality is not an alpha-2 code or a list of them' };
      claims.nationalities = nationalities;
    }
  }
  try {
    return { facts: pickFacts(factsFromClaims(claims, now), scopes) };
  } catch (error) {
    if (error instanceof InvalidClaimError) return { problem: 'nationality is not an ISO 3166-1 country' };
    throw error;
  }
}
