import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { fr } from './fr.ts';

describe('copy', () => {
  it('has exactly the same keys in French and English', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(fr).sort());
  });

  it.each([
    ['fr', fr],
    ['en', en],
  ] as const)('has no empty or untrimmed string in %s', (_locale, copy) => {
    for (const [key, value] of Object.entries(copy)) {
      expect(value.trim(), key).not.toBe('');
      expect(value, key).toBe(value.trim());
    }
  });

  it('keeps the countdown placeholder in both locales', () => {
    expect(fr.expiresIn).toContain('{t}');
    expect(en.expiresIn).toContain('{t}');
  });

  it('speaks to the visitor in French with vous, never tu', () => {
    const all = Object.values(fr).join(' ');
    expect(all).toMatch(/\bvous\b|\bvotre\b/i);
    expect(all).not.toMatch(/\b(tu|ton|ta|tes)\b/i);
  });

  it('says what a French product says', () => {
    expect(fr.mobileTitle).toBe('Vérifiez votre âge');
    expect(fr.waitingTitle).toBe('Scannez ce QR code avec votre téléphone');
    expect(fr.testMode).toBe('Mode test');
  });
});
