/**
 * What the service tells a partner's developer about the loader's attributes (design.md §14,
 * docs/embedding.md#warnings): the loader sends their names and `data-locale` as written with its
 * first request, and prints each line this answers as a console warning. Here, not in the loader,
 * because the names, the languages and the nearest-name search cost the loader's budget bytes.
 */
import { LOADER_ATTRIBUTES, LOCALES } from '../../src/protocol/wire.ts';
import { findScopeProblem, SCOPES, WALLET_SCOPES, type Scope } from '../../src/protocol/scopes.ts';
import { nearestName } from './nearest-name.ts';

/** More names than any tag carries: a longer list is not the loader's, and gets no answer. */
const MAX_ATTRIBUTES = 64;

/** `successPath` → `data-success-path`, as the page spells it. */
const attributeName = (name: string): string => 'data-' + name.replace(/[A-Z]/g, '-$&').toLowerCase();

/** A value echoed into a console line: as written when plain, else quoted and cut (it is the page's text). */
const echo = (value: string): string => (/^[\w-]{1,40}$/.test(value) ? value : JSON.stringify(value.slice(0, 40)));

/**
 * One line per unknown attribute (naming the nearest known one), for a `data-locale` the widget
 * does not speak, and for `data-scopes` the service refuses (INVALID_SCOPES: an unknown scope
 * names the nearest known one). Empty for a body without `attributes`, which the loader sends
 * with its first request only: other clients' answers are unchanged. Never throws: a malformed
 * field gets no line.
 *
 * @example loaderWarnings({ partner_id: 'pk_test_demo', attributes: ['partnerId', 'sucessPath'] })
 * // ['unknown attribute data-sucess-path: did you mean data-success-path?']
 */
export function loaderWarnings(body: Readonly<Record<string, unknown>>): string[] {
  const { attributes, locale_tag: tag, scopes } = body;
  if (!Array.isArray(attributes) || attributes.length > MAX_ATTRIBUTES) return [];
  const warnings = new Set<string>();
  for (const name of attributes) {
    if (typeof name === 'string' && !(LOADER_ATTRIBUTES as readonly string[]).includes(name)) {
      const nearest = nearestName(name, LOADER_ATTRIBUTES);
      warnings.add(`unknown attribute ${attributeName(echo(name))}: did you mean ${attributeName(nearest)}?`);
    }
  }
  // as src/shared/locale.ts reads it: `auto`, or the tag's language among the 24
  if (
    typeof tag === 'string' &&
    tag &&
    tag !== 'auto' &&
    !(LOCALES as readonly string[]).includes(tag.toLowerCase().split('-')[0]!)
  ) {
    warnings.add(
      `data-locale ${echo(tag)} is not a language the widget speaks (${LOCALES.join(', ')}): it shows ${LOCALES[0]}`,
    );
  }
  // ADULT_BLIND: the session token's scopes apply, the attribute is not sent
  if (body.session_token === undefined && Array.isArray(scopes) && scopes.every((s) => typeof s === 'string')) {
    const line = scopeWarning(scopes as string[], body.client_proof_mode === true);
    if (line) warnings.add(line);
  }
  return [...warnings];
}

/** Why `data-scopes` is refused, as the loader once said it: `data-scopes isFrnch: did you mean isFrench?`. */
function scopeWarning(scopes: string[], clientProofMode: boolean): string | undefined {
  const unknown = scopes.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) return `data-scopes ${echo(unknown)}: did you mean ${nearestName(unknown, SCOPES)}?`;
  switch (findScopeProblem(scopes, clientProofMode)) {
    case 'EMPTY':
      return 'data-scopes is empty';
    case 'DUPLICATE_SCOPE':
      return `data-scopes names ${scopes.find((s, i) => scopes.indexOf(s) < i)} twice`;
    case 'MALE_AND_FEMALE':
      return 'data-scopes isMale with isFemale';
    case 'NOT_WALLET_COMPATIBLE':
      return `data-scopes ${scopes.filter((s) => !WALLET_SCOPES.includes(s as Scope)).join(',')} not with data-client-proof-mode`;
    default:
      return undefined;
  }
}
