/**
 * Counted words in the widget's copy (design.md §20): one string of whole sentences, one for each
 * plural category `Intl.PluralRules` gives a whole number in the language, written
 * `category=sentence` and separated by `|`; the last one has no category and is the sentence of
 * every category not named before it (Polish `one=…{n} minutę|few=…{n} minuty|…{n} minut`: 0, 5
 * and 12 take the last). One string, because a locale script carries its copy as strings
 * (order.ts); `{n}` is the number, which the widget counts in digits that read alike in all
 * its languages (minutes, at most five: Intl.NumberFormat would write them the same).
 *
 * @example plural('pl', 'one=Za {n} minutę|few=Za {n} minuty|Za {n} minut', 22) // 'Za 22 minuty'
 */
export function plural(lang: string, forms: string, count: number): string {
  const category = new Intl.PluralRules(lang).select(count);
  return forms
    .split('|')
    .map((form) => form.split('=')) // [category, sentence], or [sentence] for the last
    .find(([named, sentence]) => !sentence || named == category)!
    .pop()!
    .replace('{n}', `${count}`);
}
