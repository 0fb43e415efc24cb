/**
 * The API documentation as a partner developer opens it (docs/partner-api.md): Swagger UI at /docs renders
 * every operation under its own CSP (no 'unsafe-inline'; the hash of the one style element its
 * scripts create) with nothing in the console, and "Try it out" reaches the API.
 */
import { expect, test } from '@playwright/test';
import { watchConsole, watchCspViolations } from './support/pages.ts';
import { SERVICE_URL } from './support/urls.ts';

test('the API docs render every operation under their CSP, with nothing in the console and no violation', async ({
  page,
}) => {
  const violations = await watchCspViolations(page);
  const problems = watchConsole(page);
  const response = await page.goto(`${SERVICE_URL}/docs`);
  const csp = response!.headers()['content-security-policy']!;
  expect(csp).toContain("style-src 'self' 'sha256-");
  expect(csp).not.toContain('unsafe-inline');

  for (const id of [
    'partner-post_v1_exchange',
    'partner-post_api_partner_verify_request',
    'partner-get_api_partner_verify_status__requestId_',
    'billing-post_api_billing_session',
    'widget-post_api_w_verify_request',
    'widget-get_api_w_verify_status__requestId_',
    'wallet-post_oid4vp_response__requestId_',
  ]) {
    await expect(page.locator(`#operations-${id}`)).toBeVisible();
  }

  // An operation opened: its parameters, its body and its answers render (the models too).
  const status = page.locator('#operations-widget-get_api_w_verify_status__requestId_');
  await status.locator('.opblock-summary').click();
  await expect(status.locator('tr[data-param-name="pt"]')).toBeVisible();
  await expect(status.locator('tr.response[data-code="429"]')).toContainText('Retry-After');
  const session = page.locator('#operations-billing-post_api_billing_session');
  await session.locator('.opblock-summary').click();
  await expect(session.locator('.opblock-section-request-body')).toContainText('origin');

  expect(await violations()).toEqual([]);
  expect(problems).toEqual([]);
});

// Its own journey: the two took 15–16 s together in Firefox on a quiet machine, over a third of the timeout.
test('"Try it out" in the API docs reaches the API under the same CSP', async ({ page }) => {
  const violations = await watchCspViolations(page);
  const problems = watchConsole(page);
  await page.goto(`${SERVICE_URL}/docs`);
  const keys = page.locator('#operations-billing-get_api_billing_attestation_keys');
  await keys.locator('.opblock-summary').click();
  await keys.getByRole('button', { name: 'Try it out' }).click();
  await keys.getByRole('button', { name: 'Execute' }).click();
  await expect(keys.locator('.live-responses-table .response-col_status').last()).toHaveText('200');

  expect(await violations()).toEqual([]);
  expect(problems).toEqual([]);
});
