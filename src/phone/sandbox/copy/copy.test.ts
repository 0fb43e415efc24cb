import { describe, expect, it } from 'vitest';
import personas from '../../../../fixtures/personas.json' with { type: 'json' };
import { LOCALES } from '../../../protocol/wire.ts';
import { SANDBOX_WALLET_CHOICES } from '../../../protocol/sandbox.ts';
import { en } from './en.ts';
import { SANDBOX_COPY } from './all.ts';
import { loadSandboxCopy, type SandboxCopy } from './index.ts';

/** Every string of a copy, with its path. */
function strings(copy: SandboxCopy): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') out.push([path, value]);
    else for (const [key, inner] of Object.entries(value as object)) walk(inner, path ? `${path}.${key}` : key);
  };
  walk(copy, '');
  return out;
}

const KEYS = strings(en).map(([path]) => path);

describe('the persona picker’s copy', () => {
  it('covers every locale the protocol names, each method and each credential of the sandbox wallet', () => {
    expect(Object.keys(SANDBOX_COPY).sort()).toEqual([...LOCALES].sort());
    expect(Object.keys(en.methods).sort()).toEqual(['eudi_wallet', 'face_check']);
    expect(Object.keys(en.credentials).sort()).toEqual(Object.keys(SANDBOX_WALLET_CHOICES).sort());
  });

  it.each(LOCALES)('loads %s alone, as its own chunk, the same copy', async (locale) => {
    expect(await loadSandboxCopy(locale)).toBe(SANDBOX_COPY[locale]);
  });

  it.each(LOCALES)('has exactly the strings of the English picker in %s, none empty or untrimmed', (locale) => {
    const all = strings(SANDBOX_COPY[locale]);
    expect(all.map(([path]) => path)).toEqual(KEYS);
    for (const [path, value] of all) {
      expect(value.trim(), `${locale}.${path}`).not.toBe('');
      expect(value, `${locale}.${path}`).toBe(value.trim());
    }
  });

  it.each(LOCALES)('names every sandbox persona of fixtures/personas.json in %s, keeping the name', (locale) => {
    const words = SANDBOX_COPY[locale].personas;
    expect(Object.keys(words).sort()).toEqual(personas.map((p) => p.id).sort());
    for (const persona of personas)
      expect(words[persona.id]).toMatch(new RegExp(`^${persona.label.split(' — ')[0]} — `));
  });

  it('speaks the English labels the service sends, so English reads the same with or without the copy', () => {
    for (const persona of personas) expect(en.personas[persona.id]).toBe(persona.label);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('leaves no sentence of %s in English', (locale) => {
    const english = new Map(strings(en));
    // proper names and labels that read the same in both may match; sentences may not
    const same = strings(SANDBOX_COPY[locale]).filter(
      ([path, value]) => value === english.get(path) && value.includes(' '),
    );
    expect(same.filter(([path]) => path !== 'methods.eudi_wallet')).toEqual([]);
  });
});
