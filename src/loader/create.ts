import type { BlindVerifyRequestBody, StandardVerifyRequestBody } from '../protocol/wire.ts';
import type { CreateAnswer, WidgetConfig } from '../shared/contract.ts';
import { resolveLocale } from '../shared/locale.ts';
import type { RawConfig } from './config.ts';

/**
 * Sends a verification request (design.md §3) and reads its answer: the status and the JSON body.
 * The body travels as `text/plain` so the browser sends no CORS preflight; no cookies go to the
 * service. What the answer means is the UI's to say (src/widget/net/create.ts): the loader only
 * starts the request early and hands it over, so the UI bundle carries the rest.
 *
 * @example
 * const [status, body] = await sendCreateRequest(config, controller.signal); // [201, { request_id, … }]
 */
export function sendCreateRequest(
  config: WidgetConfig,
  signal: AbortSignal,
  /** the attributes as written: the first request names them for the service's warnings (docs/embedding.md#warnings) */
  raw?: RawConfig,
): Promise<CreateAnswer> {
  const token = config.sessionToken || undefined;
  // one object for both: JSON.stringify leaves out what is undefined, so a session token goes
  // without partner_id and scopes (the configuration never has both ids: config.ts)
  const body = {
    partner_id: config.partnerId,
    session_token: token,
    scopes: token ? undefined : config.scopes,
    client_proof_mode: config.clientProofMode,
    locale: resolveLocale(config.locale),
    attributes: raw && Object.keys(raw),
    locale_tag: raw && config.locale,
  } as StandardVerifyRequestBody | BlindVerifyRequestBody;
  return fetch(config.apiOrigin + '/api/w/verify-request', {
    method: 'POST',
    // A string body goes as text/plain;charset=UTF-8 (Fetch standard): a simple request, no
    // preflight (design.md §3), and no header to spell out in the loader's bytes.
    body: JSON.stringify(body),
    credentials: 'omit',
    signal,
  }).then((response) =>
    response.json().then(
      (json: unknown): CreateAnswer => [response.status, json],
      (): CreateAnswer => [response.status],
    ),
  );
}
