/**
 * A verified result in plain words, as the success pages show it: "18 or older: yes",
 * "Verified with: a face check", "Nationality: Germany", never a scope name, an attribute key or
 * a method identifier (docs/example-partner.md, "The result in words").
 */
import { SCOPE_FIELD, type Attributes, type BillingScope, type Scope } from '../sdk/index.ts';
import { WORDS, type FactName, type PageLocale, type Words } from './copy.ts';

/** One line of a result card: `name` marks it for scripts and tests, the rest is what is read. */
export interface Fact {
  name: string;
  label: string;
  value: string;
}

// Personas carry ISO 3166-1 alpha-3 codes; Intl.DisplayNames names alpha-2 regions. The EU and
// EEA, their neighbours and the sandbox's own nationalities; any other code is shown as it is.
// prettier-ignore
const ALPHA2_OF_ALPHA3: Readonly<Record<string, string>> = {
  AUT: 'AT', BEL: 'BE', BGR: 'BG', HRV: 'HR', CYP: 'CY', CZE: 'CZ', DNK: 'DK', EST: 'EE', FIN: 'FI',
  FRA: 'FR', DEU: 'DE', GRC: 'GR', HUN: 'HU', IRL: 'IE', ITA: 'IT', LVA: 'LV', LTU: 'LT', LUX: 'LU',
  MLT: 'MT', NLD: 'NL', POL: 'PL', PRT: 'PT', ROU: 'RO', SVK: 'SK', SVN: 'SI', ESP: 'ES', SWE: 'SE',
  ISL: 'IS', LIE: 'LI', NOR: 'NO', CHE: 'CH', GBR: 'GB', USA: 'US', CAN: 'CA',
};

/**
 * A nationality code as a country name in `locale`.
 *
 * @example countryName('DEU', 'fr') // 'Allemagne'
 */
export function countryName(code: string, locale: PageLocale): string {
  const upper = code.toUpperCase();
  const region = /^[A-Z]{2}$/.test(upper) ? upper : ALPHA2_OF_ALPHA3[upper];
  if (!region) return code;
  return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(region) ?? code;
}

function formatValue(field: FactName, value: unknown, words: Words, locale: PageLocale): string | null {
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (field === 'nationality' && typeof value === 'string') return countryName(value, locale);
  if (field === 'birth_year' && typeof value === 'number') return String(value);
  if (field === 'nullifier' && typeof value === 'string' && value !== '') return value;
  return null;
}

/**
 * The facts a STANDARD exchange states: one per scope asked, in the order asked, then how the
 * visitor was verified. An attribute the answer lacks, or a method this page has no words for,
 * is left out rather than shown raw.
 *
 * @example
 * describeExchange({ scopes: ['isAdult'], attributes: { age_over_18: true, verification_method: 'face_check' } }, 'en')
 * // [{ name: 'age_over_18', label: '18 or older', value: 'yes' },
 * //  { name: 'verification_method', label: 'Verified with', value: 'a face check' }]
 */
export function describeExchange(
  answer: { scopes: readonly Scope[]; attributes: Attributes },
  locale: PageLocale,
): Fact[] {
  const words = WORDS[locale];
  const facts: Fact[] = [];
  for (const scope of answer.scopes) {
    const field = SCOPE_FIELD[scope];
    if (!field) continue;
    const value = formatValue(field, answer.attributes[field], words, locale);
    if (value !== null) facts.push({ name: field, label: words.facts[field], value });
  }
  const method = answer.attributes.verification_method;
  if (method) {
    const named = method === 'face_check' ? 'face_check' : method === 'eudi_wallet' ? 'eudi_wallet' : 'other';
    facts.push({ name: 'verification_method', label: words.facts.verification_method, value: words.methods[named] });
  }
  return facts;
}

/** What a verified attestation says (its scope_mask bits and nullifier). */
export interface AttestationFacts {
  adult: boolean;
  french: boolean;
  eu: boolean;
  nullifier?: string;
}

/**
 * The facts an ADULT_BLIND attestation states. Its scope_mask has a bit only for a fact asked
 * for AND proven, so a clear bit means "no" only for a fact the page asked for (`asked`, what
 * the billing session was created with); for any other it means "not asked". A set bit is a
 * yes whatever `asked` says.
 *
 * @example
 * describeAttestation({ adult: true, french: false, eu: false }, ['isAdult'], 'en')
 * // 18 or older: yes, French nationality: not asked, EU citizen: not asked, Your anonymous ID…: not asked
 */
export function describeAttestation(
  result: AttestationFacts,
  asked: readonly BillingScope[],
  locale: PageLocale,
): Fact[] {
  const words = WORDS[locale];
  const answer = (proven: boolean, scope: BillingScope) =>
    proven ? words.yes : asked.includes(scope) ? words.no : words.notAsked;
  return [
    { name: 'adult', label: words.facts.age_over_18, value: answer(result.adult, 'isAdult') },
    { name: 'french', label: words.facts.is_french, value: answer(result.french, 'isFrench') },
    { name: 'eu', label: words.facts.is_eu, value: answer(result.eu, 'isEU') },
    {
      name: 'nullifier',
      label: words.facts.nullifier,
      value: result.nullifier || (asked.includes('isUnique') ? words.no : words.notAsked),
    },
  ];
}

/**
 * What a widget page asks for, in words: the facts' labels joined.
 *
 * @example describeScopes(['isAdult', 'isFrench'], 'en') // '18 or older · French nationality'
 */
export function describeScopes(scopes: readonly Scope[], locale: PageLocale): string {
  const words = WORDS[locale];
  return scopes.map((scope) => words.facts[SCOPE_FIELD[scope]]).join(' · ');
}
