import { expect, test, type Locator, type Page } from '@playwright/test';
import { deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';

async function tabTo(page: Page, target: Locator, maxPresses = 15, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    await page.keyboard.press(key);
    const focused = await target.evaluate((el) => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active === el;
    });
    if (focused) return;
  }
  throw new Error(`could not reach ${target} with Tab`);
}

test('a keyboard-only visitor reaches the deep link, answers on the phone page and retries after a cancellation', async ({
  page,
  context,
}) => {
  await page.goto('/standard?locale=en');
  await waitForWidgetState(page, 'waiting');
  const openHere = widget(page).getByTestId('svc-open-here');
  await tabTo(page, openHere);
  await expect(openHere).toBeFocused();

  // First round: the visitor cancels on the phone, with the keyboard only.
  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  await expect(phone.locator('form.phone-form')).toBeVisible();
  await tabTo(phone, phone.locator('input[name="persona"]:checked'));
  await phone.keyboard.press('ArrowDown');
  await expect(phone.locator('input[name="persona"]').nth(1)).toBeChecked();
  const cancel = phone.getByRole('button', { name: 'Cancel', exact: true });
  await tabTo(phone, cancel);
  await phone.keyboard.press('Enter');
  await expect(phone.getByTestId('outcome')).toContainText('Verification cancelled');
  await expect(phone.getByTestId('outcome').locator('h2')).toBeFocused();

  // The widget offers to try again; Enter on the focused button starts a new request. The
  // visitor first comes back to the shop's tab: keys go to the window in front. (Chromium's
  // driver lets every page act focused; over BiDi Firefox does not, and a button in a window
  // without focus gets the keydown but no activation, as in a real browser.)
  await waitForWidgetState(page, 'failed');
  await page.bringToFront();
  const retry = widget(page).getByTestId('svc-retry');
  await tabTo(page, retry);
  await page.keyboard.press('Enter');
  await waitForWidgetState(page, 'waiting');

  // Second round: approve with Enter on the form.
  const phone2 = await context.newPage();
  await phone2.goto(await deepLinkOf(page));
  await expect(phone2.locator('form.phone-form')).toBeVisible();
  const approve = phone2.getByRole('button', { name: 'Approve', exact: true });
  await tabTo(phone2, approve);
  await phone2.keyboard.press('Enter');
  await expect(phone2.getByTestId('outcome')).toContainText('Verification approved');
  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
});

test('a keyboard-only visitor reaches every way to prove it on the phone page, each with a visible focus, and leaves', async ({
  page,
  context,
}) => {
  await page.goto('/standard?locale=en');
  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  // the request's heading holds the focus first, so Tab walks the page from the top
  await expect(phone.getByTestId('audience')).toBeFocused();
  const provider = phone.getByRole('button', { name: 'Continue with Example ID' });
  const controls = [
    provider,
    phone.locator('input[name="persona"]:checked'),
    phone.locator('input[name="method"]:checked'),
    phone.locator('button[data-outcome="approved"]'),
    phone.locator('button[data-outcome="failed"]'),
    phone.locator('button[data-outcome="cancelled"]'),
  ];
  for (const control of controls) {
    await tabTo(phone, control, 3);
    const outline = await control.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline, await control.evaluate((el) => el.outerHTML.slice(0, 60))).not.toBe('none');
  }
  // back up the page (Tab past its end would leave for the browser's own controls)
  await tabTo(phone, provider, 8, 'Shift+Tab');
  await phone.keyboard.press('Enter');
  await phone.waitForURL('http://localhost:8789/**');
});
