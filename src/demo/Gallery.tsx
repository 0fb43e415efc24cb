import { COLUMNS, GALLERY_ROWS } from './gallery.ts';
import { PreviewCell } from './PreviewCell.tsx';

const THEME_NAMES = { dark: 'Dark', light: 'Light', auto: 'Auto' } as const;
const LOCALE_NAMES = { fr: 'français', en: 'English', auto: 'auto' } as const;

/** Every state as a row, theme × locale as columns, so a designer compares across a row. */
export function Gallery() {
  return (
    <section aria-labelledby="gallery-title" class="gallery">
      <h2 id="gallery-title">Every state × theme × locale</h2>
      <p class="lede">Rendered with the real components and a frozen model (a fake QR payload, the countdown stopped at 4:32), so two screenshots of this page are identical.</p>
      {GALLERY_ROWS.map((row) => (
        <section key={row.id} class="gallery-row" aria-labelledby={`row-${row.id}`} data-testid={`gallery-row-${row.id}`}>
          <h3 id={`row-${row.id}`}>
            <code>{row.title}</code>
          </h3>
          <p class="row-note">{row.note}</p>
          <div class="cells">
            {COLUMNS.map((column) => (
              <PreviewCell
                key={column.id}
                caption={`${THEME_NAMES[column.theme]} · ${LOCALE_NAMES[column.locale]}`}
                mobile={row.options.layout === 'mobile'}
                options={{ ...row.options, theme: column.theme, locale: column.locale }}
              />
            ))}
          </div>
        </section>
      ))}
    </section>
  );
}
