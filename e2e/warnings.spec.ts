/**
 * The console warnings a partner's developer gets for mistakes that do not stop the widget
 * (docs/embedding.md#warnings): the service finds them in the loader's first request and the
 * loader prints them, also when its own check failed.
 */
import { expect, test, type Page } from '@playwright/test';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { waitForWidgetState, widget } from './support/qa.ts';
import { countCreates } from './support/wire.ts';

/** The page's console lines of one type, as a developer reads them. */
function consoleLines(page: Page, type: 'warning' | 'error'): string[] {
  const lines: string[] = [];
  page.on('console', (message) => message.type() === type && lines.push(message.text()));
  return lines;
}

const LOCALE_WARNING =
  '[svc] data-locale xx is not a language the widget speaks ' +
  '(fr, bg, cs, da, de, el, en, es, et, fi, ga, hr, hu, it, lt, lv, mt, nl, pl, pt, ro, sk, sl, sv): it shows fr';

test('a misspelt data-success-path and data-locale="xx": INIT_FAILED, warnings naming the right attribute and the languages', async ({
  page,
}) => {
  const warnings = consoleLines(page, 'warning');
  const errors = consoleLines(page, 'error');
  const creates = countCreates(page);
  const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'sucess-path': '/success', locale: 'xx' });
  await page.goto(await servePartnerPage(page, '/e2e/warnings-typo', `<div id="svc-widget"></div>${tag}`));
  await waitForWidgetState(page, 'error');
  await expect.poll(() => warnings.length).toBe(2);
  expect(warnings).toEqual([
    '[svc] unknown attribute data-sucess-path: did you mean data-success-path?',
    LOCALE_WARNING,
  ]);
  expect(errors).toContain('[svc] INIT_FAILED data-success-path missing');
  // the names went without the partner id: nothing was created
  expect([creates.count, creates.names]).toEqual([0, 1]);
});

test('data-scope="isFrench" (for data-scopes) works in French with a warning; an unknown scope names the nearest', async ({
  page,
}) => {
  const warnings = consoleLines(page, 'warning');
  const errors = consoleLines(page, 'error');
  const typo = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', scope: 'isFrench' });
  await page.goto(await servePartnerPage(page, '/e2e/warnings-scope', `<div id="svc-widget"></div>${typo}`));
  await waitForWidgetState(page, 'waiting');
  await expect(widget(page).getByRole('heading', { level: 2 })).toHaveText('Scannez ce QR code avec votre téléphone');
  await expect.poll(() => warnings).toEqual(['[svc] unknown attribute data-scope: did you mean data-scopes?']);

  const unknown = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', scopes: 'isAdult,isFrnch' });
  await page.goto(await servePartnerPage(page, '/e2e/warnings-scopes', `<div id="svc-widget"></div>${unknown}`));
  await waitForWidgetState(page, 'error');
  await expect.poll(() => warnings.at(-1)).toBe('[svc] data-scopes isFrnch: did you mean isFrench?');
  expect(errors).toContain('[svc] INIT_FAILED create failed: INVALID_SCOPES');
  await expect(widget(page).getByTestId('svc-card')).toContainText(
    'La vérification d’âge de ce site est mal configurée.',
  );
});
