import type { Locale } from '../protocol/api.ts';
import type { LocaleOption } from './contract.ts';

/**
 * `auto` → `<html lang>`, then the browser's languages, then French (DESIGN §7).
 *
 * @example resolveLocale('auto') // 'en' on <html lang="en-GB">
 */
export function resolveLocale(option: LocaleOption): Locale {
  if (option !== 'auto') return option;
  for (const tag of [document.documentElement.lang, ...(navigator.languages ?? [])]) {
    const primary = tag?.toLowerCase().split('-')[0];
    if (primary === 'fr' || primary === 'en') return primary;
  }
  return 'fr';
}
