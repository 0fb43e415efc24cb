/**
 * `data-accent` (docs/embedding.md#look-and-theming): the partner's colour on buttons, links and
 * focus rings, with text on and around it kept at WCAG 2.2 AA. axe checks a dark and a light accent in both themes.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { sweepOnceInFirefox } from './support/engines.ts';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { waitForWidgetState, widget } from './support/qa.ts';

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .include('[data-testid="svc-widget"]')
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function pageWithAccent(page: Page, path: string, attributes: Record<string, string>): Promise<void> {
  const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', ...attributes });
  await page.goto(await servePartnerPage(page, path, `<div id="svc-widget"></div>${tag}`));
}

/** The computed colours of an element inside the widget's shadow root. */
function colours(page: Page, testId: string): Promise<{ background: string; color: string; outline: string }> {
  return widget(page)
    .getByTestId(testId)
    .evaluate((el) => {
      const style = getComputedStyle(el);
      return { background: style.backgroundColor, color: style.color, outline: style.outlineColor };
    });
}

const ACCENTS = [
  { name: 'a dark accent', value: '#0a7d4f', rgb: 'rgb(10, 125, 79)', text: 'rgb(255, 255, 255)' },
  { name: 'a light accent', value: '#ffc72c', rgb: 'rgb(255, 199, 44)', text: 'rgb(0, 0, 0)' },
] as const;

for (const accent of ACCENTS) {
  for (const theme of ['dark', 'light'] as const) {
    test(`${accent.name} (${accent.value}) in the ${theme} theme keeps the widget free of serious axe violations`, async ({
      page,
      browserName,
    }) => {
      sweepOnceInFirefox(browserName, accent === ACCENTS[0] && theme === 'dark');
      await pageWithAccent(page, `/e2e/accent-${theme}-${accent.value.slice(1)}`, {
        accent: accent.value,
        theme,
        layout: 'mobile',
      });
      await waitForWidgetState(page, 'waiting');
      // mobile: the accent is the button's background, with black or white text on it
      expect(await colours(page, 'svc-open-app')).toMatchObject({ background: accent.rgb, color: accent.text });
      expect(await seriousViolations(page)).toEqual([]);
      // the QR code view: the link and its focus ring in the accent's readable shade
      await widget(page).getByTestId('svc-show-qr').click();
      await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Tab');
      await expect(widget(page).getByTestId('svc-open-here')).toBeFocused();
      const link = await colours(page, 'svc-open-here');
      expect(link.outline).toBe(link.color);
    });
  }
}

test('the accent switches live through update(), and the link follows it', async ({ page }) => {
  await pageWithAccent(page, '/e2e/accent-update', { render: 'explicit', theme: 'light' });
  await page.waitForFunction(() => 'SVC' in window);
  await page.evaluate(() => {
    const svc = (window as unknown as { SVC: { render(id: string, o: object): unknown } }).SVC;
    (window as unknown as { e2eHandle: unknown }).e2eHandle = svc.render('svc-widget', { accent: '#6b2c91' });
  });
  await waitForWidgetState(page, 'waiting');
  expect((await colours(page, 'svc-open-here')).color).toBe('rgb(107, 44, 145)');
  await page.evaluate(() =>
    (window as unknown as { e2eHandle: { update(o: object): void } }).e2eHandle.update({ accent: '#0a7d4f' }),
  );
  await expect.poll(async () => (await colours(page, 'svc-open-here')).color).toBe('rgb(10, 125, 79)');
  await page.evaluate(() =>
    (window as unknown as { e2eHandle: { update(o: object): void } }).e2eHandle.update({ accent: 'red' }),
  );
  expect((await colours(page, 'svc-open-here')).color).toBe('rgb(10, 125, 79)');
});

for (const bad of ['green', '#0a7d', '#0a7d4fcc', 'rgb(10,125,79)', '#fff;}*{display:none']) {
  test(`data-accent="${bad}" is refused with INIT_FAILED naming the attribute`, async ({ page, browserName }) => {
    sweepOnceInFirefox(browserName, bad === 'green');
    const messages: string[] = [];
    page.on('console', (message) => message.type() === 'error' && messages.push(message.text()));
    await pageWithAccent(page, `/e2e/bad-accent-${encodeURIComponent(bad)}`, { accent: bad });
    await waitForWidgetState(page, 'error');
    expect(messages).toContain('[svc] INIT_FAILED data-accent invalid');
  });
}
