/**
 * Every language fits (design.md §20, docs/embedding.md#languages): the designers' gallery renders
 * every state of both sizes with the real components; for each of the 24 languages, at 320 px and
 * 390 px, no element of a card may hold more than its box (scrollWidth/scrollHeight over
 * clientWidth/clientHeight: text clipped or spilling out) and no card may be taller than the
 * height the loader reserves for it (design.md §14's no-layout-shift rule, src/shared/contract.ts
 * reservedHeight: 400 px regular, 276 px compact, 620 px in client proof mode), every row held,
 * the wallet's and the compact card's at 320 px too. One page for all of it: the locale picker
 * re-renders the grid in place. The phone page's request view, opened in each language, is laid
 * out again at 320 px and 390 px in place and fails on any word wider than its box.
 *
 * `SVC_SCREENSHOTS=1` also writes docs/screenshots/locale-<xx>.png for the longest languages and
 * the phone page in Polish, Greek and Finnish (`npm run screenshots` sets it).
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PHONE_COPY } from '../src/phone/copy/all.ts';
import { LOCALES, type Locale } from '../src/protocol/wire.ts';
import { reservedHeight } from '../src/shared/contract.ts';
import { seriousViolations } from './support/axe.ts';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { PARTNER_URL, SERVICE_URL } from './support/urls.ts';

const WIDTHS = [320, 390] as const;
const PHONE_WIDTHS = [320, 390] as const;
/**
 * The heights the loader reserves (src/shared/contract.ts): a gallery row's card is compact when
 * its id ends so, in client proof mode when it shows a wallet (src/demo/gallery.ts names them).
 */
const RESERVED = {
  regular: reservedHeight({ size: 'regular' }),
  compact: reservedHeight({ size: 'compact' }),
  proof: reservedHeight({ clientProofMode: true }),
};
/** The rows of the states the contract names, in both sizes: waiting, expired, failed, completed, a configuration error. */
const CONTRACT_ROWS = ['waiting', 'expired', 'failed', 'completed', 'error-config'].flatMap((id) => [
  id,
  `${id}-compact`,
]);
const SCREENSHOT_LOCALES: readonly Locale[] = ['de', 'fi', 'el', 'hu', 'ga', 'pl'];
const SCREENSHOTS = process.env.SVC_SCREENSHOTS === '1';
const DIR = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

test.beforeEach(({ browserName }) => {
  test.skip(browserName !== 'chromium', 'layout is measured once, in Chromium (design.md §20)');
});

/**
 * Every light-theme card of the gallery at each of `widths` (one round trip): what overflows, and
 * what is taller than its reserve.
 */
async function misfits(page: Page, widths: readonly number[]): Promise<{ renders: number; problems: string[] }> {
  return page.evaluate(
    ({ widths, reserved }) => {
      const problems: string[] = [];
      let renders = 0;
      for (const width of widths) {
        for (const slot of Array.from(document.querySelectorAll<HTMLElement>('.cell-slot'))) {
          slot.style.setProperty('width', `${width}px`);
          slot.style.setProperty('max-width', 'none');
        }
        for (const row of Array.from(document.querySelectorAll<HTMLElement>('[data-testid^="gallery-row-"]'))) {
          const id = row.dataset.testid!.slice('gallery-row-'.length);
          const card = row.querySelector('.cell-light [data-testid="svc-widget"]')?.shadowRoot?.querySelector('.card');
          if (!card) {
            problems.push(`${id}: no card`);
            continue;
          }
          renders++;
          const box = card.getBoundingClientRect();
          const limit = id.includes('wallet')
            ? reserved.proof
            : id.endsWith('-compact')
              ? reserved.compact
              : reserved.regular;
          if (!(box.height <= limit + 0.5))
            problems.push(`${id} @ ${width}px: the card is ${box.height} px tall, over ${limit}`);
          if (box.width > width + 0.5) problems.push(`${id}: the card is ${box.width} px wide in ${width}`);
          for (const element of [card, ...Array.from(card.querySelectorAll('*'))]) {
            // the live region is visually hidden by design; an SVG's box is its drawing
            if (element.closest('.sr, svg')) continue;
            const over =
              element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
            if (over && element.clientWidth > 0)
              problems.push(
                `${id} @ ${width}px: <${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}"> holds ` +
                  `${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight}: ` +
                  `“${(element.textContent ?? '').slice(0, 60)}”`,
              );
          }
        }
      }
      return { renders, problems };
    },
    { widths, reserved: RESERVED },
  );
}

/** Every preview's slot `px` wide (CSSOM: the demo's CSP allows no inline style sheet). */
async function setWidth(page: Page, px: number): Promise<void> {
  await page.evaluate((px) => {
    for (const slot of Array.from(document.querySelectorAll<HTMLElement>('.cell-slot'))) {
      slot.style.setProperty('width', `${px}px`);
      slot.style.setProperty('max-width', 'none');
    }
  }, px);
}

async function showLocale(page: Page, locale: Locale): Promise<void> {
  await page.locator(`input[name="gallery-locale"][value="${locale}"]`).check();
  await page.waitForFunction(
    (locale) =>
      Array.from(document.querySelectorAll('.cell-slot')).every(
        (slot) =>
          slot.querySelector('[data-testid="svc-widget"]')?.shadowRoot?.querySelector('.card')?.getAttribute('lang') ===
          locale,
      ),
    locale,
  );
}

async function openGallery(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${SERVICE_URL}/demo`);
  await expect(page.getByTestId('gallery-row-error-config-compact').getByTestId('svc-widget')).toHaveCount(2);
}

test('every state of both sizes fits at 320 px and 390 px in all 24 languages, within the height the loader reserves', async ({
  page,
}) => {
  test.setTimeout(SCREENSHOTS ? 480_000 : 240_000);
  await openGallery(page);
  // the light column is measured: the dark one and the notes leave the layout (half its work)
  await page.evaluate(() =>
    document
      .querySelectorAll<HTMLElement>('.cell-dark, .row-note')
      .forEach((element) => element.style.setProperty('display', 'none')),
  );
  const problems: string[] = [];
  let renders = 0;
  for (const locale of LOCALES) {
    await showLocale(page, locale);
    const found = await misfits(page, WIDTHS);
    renders += found.renders;
    problems.push(...found.problems.map((p) => `${locale}: ${p}`));
  }
  console.log(`locale-fit: ${renders} renders (${LOCALES.length} languages × ${WIDTHS.length} widths × every row)`);
  expect(problems).toEqual([]);
  expect(renders).toBeGreaterThanOrEqual(LOCALES.length * WIDTHS.length * CONTRACT_ROWS.length);

  if (!SCREENSHOTS) return;
  mkdirSync(DIR, { recursive: true });
  // five 320 px columns and their gaps, wider than the 1400 px the test runs in
  await page.setViewportSize({ width: 1800, height: 900 });
  await setWidth(page, 320);
  // the contract's ten rows, light theme, five to a line (the page's CSP allows no style sheet: CSSOM)
  await page.evaluate((rows) => {
    const hide = (element: Element): void => (element as HTMLElement).style.setProperty('display', 'none');
    for (const row of Array.from(document.querySelectorAll<HTMLElement>('.gallery-row')))
      if (!rows.includes(row.dataset.testid!.slice('gallery-row-'.length))) hide(row);
    const grid = document.querySelector<HTMLElement>('.gallery-rows')!.style;
    grid.setProperty('grid-template-columns', 'repeat(5, max-content)');
    // the element's own box, which the screenshot takes, as wide as its five columns
    grid.setProperty('width', 'max-content');
    grid.setProperty('column-gap', '16px');
    for (const cells of Array.from(document.querySelectorAll<HTMLElement>('.cells')))
      cells.style.setProperty('grid-template-columns', 'max-content');
  }, CONTRACT_ROWS);
  for (const locale of SCREENSHOT_LOCALES) {
    await showLocale(page, locale);
    await page.locator('.gallery-rows').screenshot({ path: `${DIR}locale-${locale}.png`, animations: 'disabled' });
  }
});

test('axe finds nothing serious in the widget in any of the 24 languages, both sizes, four languages a page', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // four real widgets a page (each holds a long poll: a browser opens six connections to an
  // origin, the locale scripts need the rest), regular and compact in turn; one axe pass a page
  await page.setViewportSize({ width: 1000, height: 1800 });
  const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', render: 'explicit' });
  const problems: string[] = [];
  for (let start = 0; start < LOCALES.length; start += 4) {
    const locales = LOCALES.slice(start, start + 4);
    const slots = locales.map((locale) => `<div id="w-${locale}"></div>`).join('');
    await page.goto(await servePartnerPage(page, `/e2e/locale-fit-axe-${start}`, `${slots}${tag}`));
    await page.waitForFunction(() => 'SVC' in window);
    await page.evaluate((locales) => {
      const svc = (window as unknown as { SVC: { render(id: string, o: object): unknown } }).SVC;
      locales.forEach((locale, i) => svc.render(`w-${locale}`, { locale, size: i % 2 ? 'compact' : 'regular' }));
    }, locales);
    const spoken = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('[data-testid="svc-widget"]')).map(
          (host) =>
            `${host.getAttribute('data-state')} ${host.shadowRoot?.querySelector('.card')?.getAttribute('lang')}`,
        ),
      );
    await expect.poll(spoken).toEqual(locales.map((locale) => `waiting ${locale}`));
    problems.push(...(await seriousViolations(page)).map((v) => `${locales.join(' ')}: ${v}`));
  }
  expect(problems).toEqual([]);
});

/** A request made as a widget in `locale` makes it (the widget's create call): its deep link. */
async function requestIn(page: Page, locale: Locale): Promise<string> {
  const answer = await page.request.post(`${SERVICE_URL}/api/w/verify-request`, {
    data: { partner_id: 'pk_test_demo', locale },
    headers: { origin: PARTNER_URL },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { deep_link: string }).deep_link;
}

/**
 * What spills out of its box on the phone page as it stands (its lines wrap, so a word wider than
 * its box is what overflows): every element whose content is wider than it, and the page wider
 * than the screen. The screen-reader-only words are 1 px boxes by design.
 */
async function phoneMisfits(page: Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width + 1)
      problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      if (element.closest('.phone-sr, svg, script, style')) continue;
      if (element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1)
        problems.push(
          `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}"> holds ` +
            `${element.scrollWidth} px in ${element.clientWidth}: “${(element.textContent ?? '').slice(0, 60)}”`,
        );
    }
    return problems;
  }, width);
}

for (const half of [LOCALES.slice(0, 12), LOCALES.slice(12)])
  test(`the phone page speaks the request’s language (${half[0]}…${half.at(-1)}), that one only, and axe finds nothing`, async ({
    page,
    context,
  }) => {
    test.setTimeout(180_000);
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 360, height: 740 });
    const copies: string[] = [];
    phone.on('request', (request) => {
      const name = new URL(request.url()).pathname.split('/').pop()!;
      if (/^[a-z]{2}-[\w-]+\.js$/.test(name)) copies.push(name.slice(0, 2));
    });
    const accessibility: string[] = [];
    const overflow: string[] = [];
    let renders = 0;
    for (const locale of half) {
      copies.length = 0;
      await phone.goto(await requestIn(page, locale));
      await expect(phone.locator('html')).toHaveAttribute('lang', locale);
      await expect(phone.getByRole('button').first()).toBeVisible();
      // the page's copy and its sandbox wing's, in that language; the browser's (en-US) never
      await expect.poll(() => copies.length).toBeGreaterThanOrEqual(1);
      expect(copies.filter((l) => l !== locale)).toEqual([]);
      accessibility.push(...(await seriousViolations(phone)).map((v) => `${locale}: ${v}`));
      // the request's view fits a 320 px and a 390 px phone (design.md §20), re-laid out in place
      for (const width of PHONE_WIDTHS) {
        await phone.setViewportSize({ width, height: 740 });
        overflow.push(...(await phoneMisfits(phone, width)).map((p) => `${locale} @ ${width}px: ${p}`));
        renders++;
      }
      await phone.setViewportSize({ width: 360, height: 740 });
      if (SCREENSHOTS && ['pl', 'el', 'fi'].includes(locale))
        await phone.screenshot({ path: `${DIR}phone-${locale}.png`, fullPage: true, animations: 'disabled' });
    }
    console.log(
      `locale-fit: the phone page, ${renders} renders (${half.length} languages × ${PHONE_WIDTHS.length} widths)`,
    );
    expect(accessibility).toEqual([]);
    expect(overflow).toEqual([]);
  });

test('the phone page’s done view and its way back fit 320 px and 390 px in all 24 languages', async ({ page }) => {
  // design.md §19's done view, as a link that is not (or no longer) valid shows it: its panel, and
  // beside its words the way back's button as an approved view has it (OutcomePanel.tsx). Each
  // language's words are put in place, panel by panel, at each width: two layouts a language.
  await page.goto(`${SERVICE_URL}/m/v/vr_locale_fit/done`);
  await expect(page.getByTestId('phone-done')).toBeVisible();
  await page.evaluate(() => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'phone-button phone-button-secondary';
    document.querySelector('[data-testid="phone-done"]')!.append(button);
  });
  const words = LOCALES.map((locale) => {
    const { doneView, backToSite } = PHONE_COPY[locale];
    return { locale, back: backToSite, panels: [doneView.shared, doneView.ended, doneView.neutral] };
  });
  const problems: string[] = [];
  let renders = 0;
  for (const width of PHONE_WIDTHS) {
    await page.setViewportSize({ width, height: 740 });
    const found = await page.evaluate(
      ({ words, width }) => {
        const out: string[] = [];
        let count = 0;
        const panel = document.querySelector<HTMLElement>('[data-testid="phone-done"]')!;
        for (const { locale, back, panels } of words) {
          document.documentElement.lang = locale;
          panel.querySelector('button')!.textContent = back;
          for (const { title, help } of panels) {
            panel.querySelector('h2')!.textContent = title;
            panel.querySelector('p')!.textContent = help;
            count++;
            if (document.documentElement.scrollWidth > width + 1)
              out.push(`${locale}: the page is ${document.documentElement.scrollWidth} px wide`);
            for (const element of [panel, ...Array.from(panel.querySelectorAll('*'))])
              if (element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1)
                out.push(
                  `${locale}: <${element.tagName.toLowerCase()}> holds ${element.scrollWidth} px ` +
                    `in ${element.clientWidth}: “${element.textContent}”`,
                );
          }
        }
        return { out, count };
      },
      { words, width },
    );
    renders += found.count;
    problems.push(...found.out.map((p) => `${width}px ${p}`));
  }
  console.log(`locale-fit: the done view, ${renders} renders (24 languages × 3 panels × 2 widths)`);
  expect(problems).toEqual([]);
  expect(renders).toBe(LOCALES.length * 3 * PHONE_WIDTHS.length);
});
