import type { Layout } from '../../shared/contract.ts';

/**
 * Phone or desktop: a coarse pointer on a narrow screen, or a mobile user agent. Partners and
 * tests override it with `data-layout` / `render(…, { layout })`.
 *
 * @example detectLayout() // 'mobile' on a phone
 */
export function detectLayout(): Layout {
  const coarse = matchMedia('(pointer:coarse)').matches && innerWidth < 820;
  return coarse || /Mobi|Android|iPhone|iPad/.test(navigator.userAgent) ? 'mobile' : 'desktop';
}
