import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { deepLinkOf, waitForWidgetState } from './support/qa.ts';

async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const theme of ['dark', 'light'] as const) {
  for (const locale of ['fr', 'en'] as const) {
    test(`the waiting widget has no serious accessibility violation (${theme}, ${locale})`, async ({ page }) => {
      await page.goto(`/standard?theme=${theme}&locale=${locale}`);
      await waitForWidgetState(page, 'waiting');
      expect(await seriousViolations(page, '[data-testid="svc-widget"]')).toEqual([]);
    });
  }
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the sandbox phone page has no serious accessibility violation (${colorScheme} scheme)`, async ({
    page,
    context,
  }) => {
    await page.goto('/standard');
    const phone = await context.newPage();
    await phone.emulateMedia({ colorScheme });
    await phone.goto(await deepLinkOf(page));
    await expect(phone.locator('form.phone-form')).toBeVisible();
    expect(await seriousViolations(phone)).toEqual([]);
    await phone.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(phone.getByTestId('outcome')).toBeVisible();
    expect(await seriousViolations(phone)).toEqual([]);
  });
}

test('the example partner pages have no serious accessibility violation around the widget', async ({ page }) => {
  for (const path of ['/', '/standard']) {
    await page.goto(path);
    if (path === '/standard') await waitForWidgetState(page, 'waiting');
    expect(await seriousViolations(page), path).toEqual([]);
  }
});
