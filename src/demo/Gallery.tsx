import { LOCALES } from '../protocol/wire.ts';
import { ACCENTS, GALLERY_ROWS, LOCALE_NAMES, THEMES, type GalleryModel } from './gallery.ts';
import { PreviewCell } from './PreviewCell.tsx';

const THEME_NAMES = { dark: 'Dark', light: 'Light', auto: 'Auto' } as const;
const DEFAULT_ACCENT = '#3454d1';

/** A colour sample drawn with an SVG fill: no style attribute, so the page's CSP holds. */
function Swatch({ color }: { color: string }) {
  return (
    <svg class="swatch" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <rect width="16" height="16" rx="4" fill={color} />
    </svg>
  );
}

/** The locale and accent every preview below uses. */
function Pickers({ model }: { model: GalleryModel }) {
  const accent = model.accent.value;
  const custom = accent !== null && !ACCENTS.some((a) => a.value === accent);
  return (
    <form class="pickers" onSubmit={(event) => event.preventDefault()} data-testid="gallery-pickers">
      <fieldset class="control">
        <legend>Locale</legend>
        {LOCALES.map((locale) => (
          <label key={locale}>
            <input
              type="radio"
              name="gallery-locale"
              value={locale}
              checked={model.locale.value === locale}
              onChange={() => (model.locale.value = locale)}
            />
            {LOCALE_NAMES[locale]} <code>{locale}</code>
          </label>
        ))}
        <p class="hint">The spec names fr and en; the other 22 of the EU’s official languages are additions.</p>
      </fieldset>
      <fieldset class="control">
        <legend>Accent (data-accent)</legend>
        <label>
          <input
            type="radio"
            name="gallery-accent"
            value=""
            checked={accent === null}
            onChange={() => (model.accent.value = null)}
          />
          <Swatch color={DEFAULT_ACCENT} /> Default
        </label>
        {ACCENTS.map(({ name, value }) => (
          <label key={value}>
            <input
              type="radio"
              name="gallery-accent"
              value={value}
              checked={accent === value}
              onChange={() => (model.accent.value = value)}
            />
            <Swatch color={value} /> {name} <code>{value}</code>
          </label>
        ))}
        <label>
          <input
            type="radio"
            name="gallery-accent"
            value="custom"
            checked={custom}
            onChange={() => (model.accent.value = '#0b6e99')}
          />
          Custom
          <input
            type="color"
            aria-label="Custom accent colour"
            value={custom ? accent : '#0b6e99'}
            onInput={(event) => (model.accent.value = (event.target as HTMLInputElement).value)}
          />
        </label>
        <p class="hint">
          The widget writes black or white on the button, whichever reads better, and adjusts links and focus rings to
          the card.
        </p>
      </fieldset>
    </form>
  );
}

/** Every state as a row, one column per theme, in the picked locale and accent. */
export function Gallery({ model }: { model: GalleryModel }) {
  const locale = model.locale.value;
  const accent = model.accent.value ?? undefined;
  return (
    <section aria-labelledby="gallery-title" class="gallery">
      <h2 id="gallery-title">Every state × theme</h2>
      <p class="lede">
        Rendered with the real components and a frozen model (a fake QR payload, the countdown stopped at 5 minutes), so
        two screenshots of this page are identical.
      </p>
      <Pickers model={model} />
      <div class="gallery-rows">
        {GALLERY_ROWS.map((row) => (
          <section
            key={row.id}
            class="gallery-row"
            aria-labelledby={`row-${row.id}`}
            data-testid={`gallery-row-${row.id}`}
          >
            <h3 id={`row-${row.id}`}>
              <code>{row.title}</code>
            </h3>
            <p class="row-note">{row.note}</p>
            <div class="cells">
              {THEMES.map((theme) => (
                <PreviewCell
                  key={theme}
                  caption={`${THEME_NAMES[theme]} · ${LOCALE_NAMES[locale]}${accent ? ` · ${accent}` : ''}`}
                  mobile={row.options.layout === 'mobile'}
                  options={{ ...row.options, theme, locale, ...(accent ? { accent } : {}) }}
                />
              ))}
            </div>
          </section>
        ))}
      </div>
    </section>
  );
}
