/**
 * A partner's brand accent (`data-accent`, docs/embedding.md#look-and-theming) as readable colours: the button keeps
 * the accent and gets black or white text, whichever contrasts more; links, icons and focus rings get
 * the accent itself where it reads on the card, else the accent moved toward white (dark theme)
 * or black (light theme) until it does. Contrast is WCAG 2.2's (relative luminance), and the
 * target is AA for text, 4.5:1.
 */

/** WCAG 2.2 AA for normal text. */
export const MIN_CONTRAST = 4.5;

/** The card backgrounds of the two themes (styles.ts). */
export const BACKGROUNDS = { dark: '#17191f', light: '#fff' } as const;

/** Red, green, blue of `#rgb` or `#rrggbb`, 0–255. */
function channels(hex: string): number[] {
  const digits = hex.length === 4 ? hex.slice(1).replace(/./g, '$&$&') : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16));
}

/**
 * One sRGB channel (0–255), linearised as WCAG's relative luminance does.
 *
 * @example linearChannel(255) // 1
 */
export function linearChannel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/**
 * Relative luminance, 0 (black) to 1 (white).
 *
 * @example luminance('#fff') // 1
 */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map(linearChannel);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/**
 * The contrast ratio of two luminances, 1 to 21.
 *
 * @example contrast(luminance('#000'), luminance('#fff')) // 21
 */
export function contrast(one: number, other: number): number {
  return (Math.max(one, other) + 0.05) / (Math.min(one, other) + 0.05);
}

/**
 * Black or white text for a background of luminance `l`, whichever contrasts more. One of them
 * always reaches 4.58:1 (accent.test.ts checks every sRGB colour): they tie at l ≈ 0.179.
 *
 * @example textOnLuminance(luminance('#0a7d4f')) // '#fff'
 */
export function textOnLuminance(l: number): '#000' | '#fff' {
  return contrast(l, 0) > contrast(l, 1) ? '#000' : '#fff';
}

/**
 * `accent` itself if text in it reads on `background` (4.5:1), else the first step toward `toward`
 * (`#fff` or `#000`, in sixteenths) that does.
 *
 * @example readableOn('#0a7d4f', BACKGROUNDS.dark, '#fff') // '#5ca58a'-ish: the green, lightened
 */
export function readableOn(accent: string, background: string, toward: '#fff' | '#000'): string {
  const from = channels(accent);
  const to = toward === '#fff' ? 255 : 0;
  const bg = luminance(background);
  let mixed = accent;
  for (let step = 0; step <= 16; step++) {
    mixed =
      '#' +
      from
        .map((c) =>
          Math.round(c + ((to - c) * step) / 16)
            .toString(16)
            .padStart(2, '0'),
        )
        .join('');
    if (contrast(luminance(mixed), bg) >= MIN_CONTRAST) break;
  }
  return mixed;
}

/**
 * The stylesheet of one widget's accent, adopted after the shared one: the button's colours,
 * and the link colour (links, icons, focus rings) of each theme.
 *
 * @example accentCss('#0a7d4f') // '.card{--a:#0a7d4f;--on:#fff}.dark,.auto{--lk:…}…'
 */
export function accentCss(accent: string): string {
  const dark = readableOn(accent, BACKGROUNDS.dark, '#fff');
  const light = readableOn(accent, BACKGROUNDS.light, '#000');
  return (
    `.card{--a:${accent};--on:${textOnLuminance(luminance(accent))}}` +
    `.dark,.auto{--lk:${dark}}.light{--lk:${light}}@media(prefers-color-scheme:light){.auto{--lk:${light}}}`
  );
}
