import { expect, test, type Page } from '@playwright/test';
import { deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';

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

// Two journeys, not one: the cancel-and-retry round and the approving round took 18–19 s together
// in Firefox on a quiet machine, over a third of the timeout.
test('a keyboard-only visitor reaches the deep link, cancels on the phone page and retries from the widget', async ({
  page,
  context,
}) => {
  await page.goto('/standard?locale=en');
  await waitForWidgetState(page, 'waiting');
  await tabTo(page, '[data-testid="svc-open-here"]');
  await expect(widget(page).getByTestId('svc-open-here')).toBeFocused();

  const first = await deepLinkOf(page);
  const phone = await context.newPage();
  await phone.goto(first);
  await expect(phone.locator('form.phone-form')).toBeVisible();
  await tabTo(phone, 'input[name="persona"]:checked');
  await phone.keyboard.press('ArrowDown');
  await expect(phone.locator('input[name="persona"]').nth(1)).toBeChecked();
  await tabTo(phone, 'button[data-outcome="cancelled"]');
  await expect(phone.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await phone.keyboard.press('Enter');
  await expect(phone.getByTestId('outcome')).toContainText('Verification cancelled');
  await expect(phone.getByTestId('outcome').locator('h2')).toBeFocused();

  // The widget offers to try again; Enter on the focused button starts a new request. The
  // visitor first comes back to the shop's tab: keys go to the window in front. (Chromium's
  // driver lets every page act focused; over BiDi Firefox does not, and a button in a window
  // without focus gets the keydown but no activation, as in a real browser.)
  await waitForWidgetState(page, 'failed');
  await page.bringToFront();
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
