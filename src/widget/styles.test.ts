import { describe, expect, it } from 'vitest';
import { CSS } from './styles.ts';

/** `name → declarations` of every @keyframes rule in `css`. */
function keyframesOf(css: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of css.matchAll(/@keyframes\s+([\w-]+)\s*\{((?:[^{}]*\{[^{}]*\})*)\s*\}/g))
    found.set(match[1]!, match[2]!);
  return found;
}

/** `[selector, animation value]` of every `animation:` declaration in `css`. */
function animationsOf(css: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const match of css.matchAll(/([^{}]+)\{[^{}]*?\banimation:([^;}]+)/g))
    found.push([match[1]!.trim(), match[2]!.trim()]);
  return found;
}

describe('the widget stylesheet', () => {
  it('animates only properties the compositor runs (transform, opacity), never a colour or a stroke', () => {
    const keyframes = keyframesOf(CSS);
    expect(keyframes.size).toBeGreaterThan(0);
    for (const [name, body] of keyframes) {
      const properties = [...body.matchAll(/([\w-]+)\s*:/g)].map((m) => m[1]);
      expect(properties, `@keyframes ${name}`).not.toHaveLength(0);
      for (const property of properties) expect(['transform', 'opacity'], `@keyframes ${name}`).toContain(property);
    }
  });

  it('animates whole icons, not the shapes inside them (an SVG child repaints on the main thread)', () => {
    for (const [selector] of animationsOf(CSS)) expect(selector).not.toMatch(/\s(circle|path)$/);
  });

  it('loops forever only the spinner: the waiting view settles after a few beats', () => {
    // `animation:none` (under prefers-reduced-motion) starts nothing
    const animations = animationsOf(CSS).filter(([, value]) => !value.startsWith('none'));
    expect(animations.map(([selector]) => selector)).toEqual(expect.arrayContaining(['.spin', '.phone']));
    for (const [selector, value] of animations) {
      if (selector === '.spin') continue;
      expect(value, selector).not.toMatch(/infinite/);
      expect(value, selector).toMatch(/\s[1-3]$/);
    }
  });

  it('stops every animation under prefers-reduced-motion', () => {
    expect(CSS).toContain('@media(prefers-reduced-motion:reduce){*{animation:none!important}}');
  });

  it('draws the test-mode mark smaller than a state’s title (it outweighed the card’s own title)', () => {
    const fontSize = (selector: string) => Number(new RegExp(`\\${selector}\\{[^}]*font-size:(\\d+)px`).exec(CSS)?.[1]);
    expect(fontSize('.badge')).toBeLessThan(fontSize('.head'));
    expect(fontSize('.head')).toBeLessThan(fontSize('.title'));
  });

  it('gives the card no height of its own: it fills the height the loader reserves in the container (no layout shift)', () => {
    expect(/\.card\{[^}]*[;{](min-)?height:/.exec(CSS)).toBeNull();
    // the host takes the container's min-height (src/shared/contract.ts reservedHeight) and, a grid,
    // stretches its one row, the card, to it
    expect(CSS).toMatch(/:host\{[^}]*display:grid;min-height:inherit\}/);
  });

  it('lets the compact card’s QR code at its least side shrink beside its words in a narrow column, not a wallet’s', () => {
    // 136 px: the words' 120 px column and the 16 px gap; the wallet's code is wider than 160 px and wraps
    expect(CSS).toContain('.compact :has(>[width="160"]){max-width:calc(100% - 136px)}');
  });

  it('lets the compact card’s countdown wrap (wider than its column in Irish), and balances titles, no word left alone', () => {
    expect(CSS).toMatch(/\.compact \[role=timer\]\{font-size:12px\}/);
    expect(CSS).toMatch(/\.title\{[^}]*text-wrap:balance/);
    expect(CSS).toMatch(/\.help\{[^}]*text-wrap:pretty/);
  });
});
