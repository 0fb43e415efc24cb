/**
 * The widget's two sizes (docs/embedding.md#sizes): `data-size="compact"` for a checkout column or a modal, on a
 * computer (the QR code beside its words), compared with the regular card on the same page and
 * completed through to the partner's success page. On a phone: mobile.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { waitForWidgetState, widget } from './support/qa.ts';
import { box, completeFirst, openBothSizes } from './support/sizes.ts';
import { countCreates } from './support/wire.ts';

test('on a computer the compact card puts the QR code beside its words, is shorter, and completes', async ({
  page,
}) => {
  await openBothSizes(page, '/e2e/sizes-desktop');
  const compact = widget(page, 0);
  const tile = await box(compact.getByTestId('svc-qr'));
  const title = await box(compact.getByRole('heading', { level: 2 }));
  expect(title.x).toBeGreaterThanOrEqual(tile.x + tile.width);
  expect(title.y).toBeLessThan(tile.y + tile.height);
  expect(tile.width).toBe(160);
  const [compactCard, regularCard] = [await box(compact), await box(widget(page, 1))];
  expect(compactCard.height).toBeLessThan(regularCard.height * 0.7);
  expect((await box(widget(page, 1).getByTestId('svc-qr'))).width).toBe(200);
  await completeFirst(page, (await compact.getByTestId('svc-open-here').getAttribute('href'))!);
});

test('a wrong data-size is INIT_FAILED naming the attribute, and no request is created', async ({ page }) => {
  const creates = countCreates(page);
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', size: 'small' });
  await page.goto(await servePartnerPage(page, '/e2e/sizes-wrong', `<div id="svc-widget"></div>${tag}`));
  await waitForWidgetState(page, 'error');
  expect(errors.join('\n')).toContain('INIT_FAILED data-size invalid');
  expect(creates.count).toBe(0);
});
