import { describe, expect, it } from 'vitest';
import partners from '../../../fixtures/partners.json' with { type: 'json' };
import { LOCALES } from '../../protocol/wire.ts';
import { SCOPES } from '../../protocol/scopes.ts';
import { DEMO_AUDIENCE_LABEL } from '../words.ts';
import { en } from './en.ts';
import { PHONE_COPY } from './all.ts';
import { loadPhoneCopy, type PhoneCopy } from './index.ts';

/** Every string of a copy, functions called with a marker so their text is checked too. */
function strings(copy: PhoneCopy): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') out.push([path, value]);
    else if (typeof value === 'function') out.push([path, (value as (x: string) => string)('⟨X⟩')]);
    else for (const [key, inner] of Object.entries(value as object)) walk(inner, path ? `${path}.${key}` : key);
  };
  walk(copy, '');
  return out;
}

const KEYS = strings(en).map(([path]) => path);

describe('phone page copy', () => {
  it('covers every locale the protocol names', () => {
    expect(Object.keys(PHONE_COPY).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES)('loads %s alone, as its own chunk, the same copy', async (locale) => {
    expect(await loadPhoneCopy(locale)).toBe(PHONE_COPY[locale]);
  });

  it.each(LOCALES)('writes %s in its own script (Greek in el, Cyrillic in bg), no other', (locale) => {
    const own = locale === 'el' ? 'Greek' : locale === 'bg' ? 'Cyrillic' : 'Latin';
    for (const [path, value] of strings(PHONE_COPY[locale])) {
      const letters = value.replace(/⟨X⟩|\b(QR|EUDI|EU|UE|PID)\b/g, '');
      if (/\p{L}/u.test(letters)) expect(letters, `${locale}.${path}`).toMatch(new RegExp(`\\p{Script=${own}}`, 'u'));
      for (const other of ['Greek', 'Cyrillic'].filter((s) => s !== own))
        expect(value, `${locale}.${path}`).not.toMatch(new RegExp(`\\p{Script=${other}}`, 'u'));
    }
  });

  it('states every scope as a fact', () => {
    expect(Object.keys(en.scopes).sort()).toEqual([...SCOPES].sort());
  });

  it.each(LOCALES)('has exactly the strings of the English page in %s', (locale) => {
    expect(strings(PHONE_COPY[locale]).map(([path]) => path)).toEqual(KEYS);
  });

  it.each(LOCALES)('has no empty or untrimmed string in %s, and every template keeps its value', (locale) => {
    for (const [path, value] of strings(PHONE_COPY[locale])) {
      expect(value.trim(), `${locale}.${path}`).not.toBe('');
      expect(value, `${locale}.${path}`).toBe(value.trim());
    }
    const copy = PHONE_COPY[locale];
    for (const text of [
      copy.askedBy('⟨X⟩'),
      copy.blindNote('⟨X⟩'),
      copy.expiresIn('⟨X⟩'),
      copy.continueWith('⟨X⟩'),
      copy.opening('⟨X⟩'),
    ])
      expect(text).toContain('⟨X⟩');
  });

  it('knows the designers’ demo partner by the name fixtures/partners.json gives it', () => {
    expect(partners.find((p) => p.id === 'pk_test_designer')?.name).toBe(DEMO_AUDIENCE_LABEL);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('leaves no sentence of %s in English', (locale) => {
    const english = new Map(strings(en));
    // proper names and labels that read the same in both may match; sentences may not
    const same = strings(PHONE_COPY[locale]).filter(
      ([path, value]) => value === english.get(path) && value.includes(' '),
    );
    expect(same).toEqual([]);
  });
});
