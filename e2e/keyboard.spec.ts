import { expect, test, type Page } from '@playwright/test';
import { completeThroughApi, deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';

/** What holds the keyboard focus, looked for through shadow roots: its outline and the start of its markup. */
interface Focused {
  outline: string;
  html: string;
}

/**
 * Presses `key` until the focused element matches `selector`, and returns it. One page-level
 * evaluate per press: a locator's evaluate costs several driver round trips, which over WebDriver
 * BiDi on a busy machine took 1–4 s each and pushed this journey past its timeout in Firefox.
 */
async function tabTo(
  page: Page,
  selector: string,
  maxPresses = 15,
  key: 'Tab' | 'Shift+Tab' = 'Tab',
): Promise<Focused> {
  for (let i = 0; i < maxPresses; i++) {
    await page.keyboard.press(key);
    const focused = await page.evaluate((wanted) => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      if (!active?.matches(wanted)) return null;
      return { outline: getComputedStyle(active).outlineStyle, html: active.outerHTML.slice(0, 60) };
    }, selector);
    if (focused) return focused;
  }
  throw new Error(`could not reach ${selector} with ${key}`);
}

// Three journeys, not one: together they took 18–19 s in Firefox on a quiet machine, over a third
// of the timeout (and 18.9 s for the first two as one in a full run).
test('a keyboard-only visitor reaches the deep link and cancels on the phone page', async ({ page, context }) => {
  await page.goto('/standard?locale=en');
  await waitForWidgetState(page, 'waiting');
  await tabTo(page, '[data-testid="svc-open-here"]');
  await expect(widget(page).getByTestId('svc-open-here')).toBeFocused();

  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  await expect(phone.locator('form.phone-form')).toBeVisible();
  await tabTo(phone, 'input[name="persona"]:checked');
  await phone.keyboard.press('ArrowDown');
  await expect(phone.locator('input[name="persona"]').nth(1)).toBeChecked();
  await tabTo(phone, 'button[data-outcome="cancelled"]');
  await expect(phone.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await phone.keyboard.press('Enter');
  await expect(phone.getByTestId('outcome')).toContainText('Verification cancelled');
  await expect(phone.getByTestId('outcome').locator('h2')).toBeFocused();
  await waitForWidgetState(page, 'failed');
});

test('after a cancellation, a keyboard-only visitor starts a new request from the widget', async ({ page }) => {
  await page.goto('/standard?locale=en');
  const first = await deepLinkOf(page);
  await completeThroughApi(page, first, { outcome: 'cancelled' });
  await waitForWidgetState(page, 'failed');
  // Enter on the focused button starts a new request. (In Firefox over BiDi keys reach only the
  // window in front, as in a real browser; this journey's page is the only one.)
  await tabTo(page, '[data-testid="svc-retry"]');
  await page.keyboard.press('Enter');
  await waitForWidgetState(page, 'waiting');
  expect(await deepLinkOf(page)).not.toBe(first);
});

test('a keyboard-only visitor approves on the phone page with Enter and lands on the success page', async ({
  page,
  context,
}) => {
  await page.goto('/standard?locale=en');
  await waitForWidgetState(page, 'waiting');

  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  await expect(phone.locator('form.phone-form')).toBeVisible();
  await tabTo(phone, 'button[data-outcome="approved"]');
  await expect(phone.getByRole('button', { name: 'Approve', exact: true })).toBeFocused();
  await phone.keyboard.press('Enter');
  await expect(phone.getByTestId('outcome')).toContainText('Verification approved');
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
  const provider = 'button[data-method="idp_example"]';
  const controls = [
    provider,
    'input[name="persona"]:checked',
    'input[name="method"]:checked',
    'button[data-outcome="approved"]',
    'button[data-outcome="failed"]',
    'button[data-outcome="cancelled"]',
  ];
  for (const control of controls) {
    const focused = await tabTo(phone, control, 3);
    expect(focused.outline, focused.html).not.toBe('none');
  }
  // back up the page (Tab past its end would leave for the browser's own controls)
  await tabTo(phone, provider, 8, 'Shift+Tab');
  await expect(phone.getByRole('button', { name: 'Continue with Example ID' })).toBeFocused();
  await phone.keyboard.press('Enter');
  await phone.waitForURL('http://localhost:8789/**');
});
