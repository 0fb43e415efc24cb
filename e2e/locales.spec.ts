/**
 * The five locales added beside fr and en (docs/embedding.md#languages). The UI bundle carries French; every
 * other locale, English included, is a small script beside it, started by the loader in parallel
 * with the bundle; `auto` follows the browser's languages; the phone page follows the request's
 * (e2e/locale-fit.spec.ts covers all 24).
 */
import { expect, test, type Page } from '@playwright/test';
import { sweepOnceInFirefox } from './support/engines.ts';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { answerOnPhonePage, deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';

const WAITING_TITLES = {
  en: 'Scan this QR code with your phone',
  de: 'Scannen Sie den QR-Code mit Ihrem Smartphone',
  es: 'Escanee este código QR con su móvil',
  it: 'Inquadri questo codice QR con lo smartphone',
  nl: 'Scan deze QR-code met uw telefoon',
  pt: 'Leia este código QR com o seu telemóvel',
} as const;

/** Paths of the widget's scripts the page fetched (the bundle, locale scripts). */
function watchUiScripts(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/v4/ui.')) fetched.push(pathname);
  });
  return fetched;
}

for (const [locale, title] of Object.entries(WAITING_TITLES)) {
  test(`a visitor reads the widget in ${locale}: its script is fetched once, beside the bundle, not after it`, async ({
    page,
    browserName,
  }) => {
    sweepOnceInFirefox(browserName, locale === 'en');
    const fetched = watchUiScripts(page);
    await page.goto(`/standard?locale=${locale}`);
    await waitForWidgetState(page, 'waiting');
    await expect(widget(page).getByRole('heading', { level: 2 })).toHaveText(title);
    await expect(widget(page).getByTestId('svc-card')).toHaveAttribute('lang', locale);
    expect(fetched).toHaveLength(2);
    expect(fetched.filter((path) => path.endsWith(`-${locale}.js`))).toHaveLength(1);
    // the loader starts the locale script before the bundle's, so no round trip waits on the other
    const [copyStart, uiStart] = await page.evaluate((suffix) => {
      const entries = performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.startsWith('/v4/ui.'));
      const copy = entries.find((e) => e.name.endsWith(suffix))!;
      const ui = entries.find((e) => e !== copy)!;
      return [copy.startTime, ui.startTime];
    }, `-${locale}.js`);
    expect(copyStart).toBeLessThanOrEqual(uiStart);
  });
}

test('French, the default, comes with the bundle: no second script', async ({ page }) => {
  const fetched = watchUiScripts(page);
  await page.goto('/standard?locale=fr');
  await waitForWidgetState(page, 'waiting');
  await expect(widget(page).getByRole('heading', { level: 2 })).toHaveText('Scannez ce QR code avec votre téléphone');
  expect(fetched).toHaveLength(1);
});

test.describe('in a browser set to Dutch (Belgium)', () => {
  test.use({ locale: 'nl-BE' });

  test('data-locale="auto" speaks the browser’s language, not the page’s <html lang>', async ({ page }) => {
    const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', locale: 'auto' });
    await page.goto(await servePartnerPage(page, '/e2e/auto-nl', `<div id="svc-widget"></div>${tag}`, { lang: 'de' }));
    await waitForWidgetState(page, 'waiting');
    await expect(widget(page).getByRole('heading', { level: 2 })).toHaveText(WAITING_TITLES.nl);
  });
});

test('SVC.render and update() switch to a new locale live, on the same request', async ({ page }) => {
  const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', render: 'explicit' });
  await page.goto(await servePartnerPage(page, '/e2e/update-locale', `<div id="slot"></div>${tag}`));
  await page.waitForFunction(() => 'SVC' in window);
  await page.evaluate(() => {
    const svc = (window as unknown as { SVC: { render(id: string, o: object): { update(o: object): void } } }).SVC;
    (window as unknown as { e2eHandle: unknown }).e2eHandle = svc.render('slot', { locale: 'es' });
  });
  await waitForWidgetState(page, 'waiting');
  await expect(widget(page).getByRole('heading', { level: 2 })).toHaveText(WAITING_TITLES.es);
  const deepLink = await deepLinkOf(page);
  await page.evaluate(() =>
    (window as unknown as { e2eHandle: { update(o: object): void } }).e2eHandle.update({ locale: 'it' }),
  );
  await expect(widget(page).getByRole('heading', { level: 2 })).toHaveText(WAITING_TITLES.it);
  expect(await deepLinkOf(page)).toBe(deepLink);
});

for (const [tag, lang] of [
  ['ja', 'fr'],
  ['pt-BR', 'pt'],
  ['DE', 'de'],
] as const) {
  test(`data-locale="${tag}" is read as a BCP 47 tag: the card speaks ${lang}, never INIT_FAILED`, async ({
    page,
    browserName,
  }) => {
    sweepOnceInFirefox(browserName, tag === 'ja');
    const messages: string[] = [];
    page.on('console', (message) => message.type() === 'error' && messages.push(message.text()));
    const attrs = { 'partner-id': 'pk_test_demo', 'success-path': '/success', locale: tag };
    await page.goto(
      await servePartnerPage(page, `/e2e/locale-tag-${tag}`, `<div id="svc-widget"></div>${loaderTag(attrs)}`),
    );
    await waitForWidgetState(page, 'waiting');
    await expect(widget(page).getByRole('heading', { level: 2 })).toHaveText(
      lang === 'fr' ? 'Scannez ce QR code avec votre téléphone' : WAITING_TITLES[lang],
    );
    expect(messages).toEqual([]);
  });
}

test.describe('on a phone set to German', () => {
  test.use({ locale: 'de-DE' });

  test('a visitor verifies end to end in German: the shop, the widget, the phone page and the result in German', async ({
    page,
    context,
  }) => {
    // From the shop's index, switched to German: its links carry the language on.
    await page.goto('/');
    await page.getByRole('link', { name: 'Deutsch', exact: true }).click();
    await page.getByRole('link', { name: 'Alter bestätigen', exact: true }).click();
    await expect(page).toHaveURL(/\/standard\?locale=de$/);
    await expect(widget(page).getByTestId('svc-card')).toHaveAttribute('lang', 'de');
    const phone = await context.newPage();
    await phone.goto(await deepLinkOf(page));
    await expect(phone.locator('html')).toHaveAttribute('lang', 'de');
    await expect(phone.getByRole('heading', { level: 1 })).toHaveText('Test-Smartphone');
    await expect(phone.getByTestId('audience')).toHaveText(/bittet Sie um folgenden Nachweis:$/);
    await expect(phone.getByRole('button', { name: 'Bestätigen', exact: true })).toBeVisible();
    await expect(widget(page).getByRole('heading', { level: 2 })).toHaveText('Prüfung läuft');
    await answerOnPhonePage(phone);
    await expect(phone.getByTestId('outcome').getByRole('heading')).toHaveText('Prüfung bestätigt');
    // The shop's success page follows the page's language (docs/example-partner.md, "Languages").
    await page.waitForURL((url) => url.pathname === '/success');
    expect(new URL(page.url()).search).toBe('?locale=de');
    await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('ja');
  });
});
