/**
 * Counted words (design.md §20): the form `Intl.PluralRules` picks for `n` in `locale`, its `{n}`
 * written by `Intl.NumberFormat`. Each language writes a whole sentence for every category it uses
 * with whole numbers (Polish one/few/many, Irish one/two/few/many, Latvian zero/one); `other` is
 * there in every one, and serves a category a browser's newer CLDR adds (French `many`, for millions).
 *
 * @example plural('pl', 22, { one: '{n} minutę', few: '{n} minuty', many: '{n} minut', other: '{n} minuty' }) // '22 minuty'
 */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export function plural(locale: string, n: number, forms: PluralForms): string {
  const form = forms[new Intl.PluralRules(locale).select(n)] ?? forms.other;
  return form.replace('{n}', new Intl.NumberFormat(locale).format(n));
}
