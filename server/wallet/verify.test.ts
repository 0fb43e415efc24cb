import { describe, expect, it } from 'vitest';
import { createIssuerCertificates } from '../sandbox/wallet/sandbox-issuer.ts';
import { createDirectPost, type PresentOptions, type WalletTamper } from '../sandbox/wallet/sandbox-wallet.ts';
import type { WalletScope } from './formats/credentials.ts';
import { createWalletRequest, type WalletRequest } from './request/wallet-request.ts';
import { MINUTE_MS, NOW, persona, sandboxIssuer, sandboxTrust, trustOf, waiting, API_URL } from './test-helpers.ts';
import { type FormBody } from './answer/direct-post.ts';
import { verifyWalletResponse } from './verify.ts';
import { WALLET_CHECKS, type WalletVerdict } from './answer/verdict.ts';

const adult = persona('fr-adult-m');

async function newRequest(): Promise<WalletRequest> {
  return createWalletRequest({ requestId: 'vr_test', apiUrl: API_URL });
}

async function present(request: WalletRequest, options: Partial<PresentOptions> = {}): Promise<string> {
  const post = await createDirectPost({
    link: request.walletLink,
    issuer: sandboxIssuer,
    persona: adult,
    now: NOW,
    ...options,
  });
  expect(post.responseUri).toBe(request.responseUri);
  return post.body;
}

async function verify(
  request: WalletRequest,
  body: FormBody,
  overrides: Partial<Parameters<typeof verifyWalletResponse>[0]> = {},
) {
  return verifyWalletResponse({
    body,
    material: request.material,
    trust: sandboxTrust,
    request: waiting(),
    now: NOW,
    ...overrides,
  });
}

function refusedBy(verdict: WalletVerdict, check: keyof typeof WALLET_CHECKS): void {
  expect(verdict).toMatchObject({ status: 'refused', check, description: WALLET_CHECKS[check] });
}

async function tampered(tamper: WalletTamper): Promise<WalletVerdict> {
  const request = await newRequest();
  return verify(request, await present(request, { tamper }));
}

describe('verifyWalletResponse: what passes', () => {
  it('verifies an adult presentation with vp_token as a JSON string', async () => {
    const request = await newRequest();
    expect(await verify(request, await present(request, { encoding: 'json' }))).toEqual({
      status: 'verified',
      credential: 'av',
      facts: { isAdult: true },
    });
  });

  it('verifies the same presentation with vp_token as bracket keys vp_token[proof_of_age]=…', async () => {
    const request = await newRequest();
    const body = await present(request, { encoding: 'brackets' });
    expect(new URLSearchParams(body).has('vp_token[proof_of_age]')).toBe(true);
    expect(await verify(request, body)).toEqual({ status: 'verified', credential: 'av', facts: { isAdult: true } });
  });

  it('accepts the form as URLSearchParams or as a parsed object as well as raw text', async () => {
    const request = await newRequest();
    const body = await present(request);
    const params = new URLSearchParams(body);
    expect(await verify(request, params)).toMatchObject({ status: 'verified' });
    expect(await verify(request, Object.fromEntries(params))).toMatchObject({ status: 'verified' });
  });

  it('accepts an issuerAuth carrying COSE tag 18 (ISO shows it untagged; both are valid COSE)', async () => {
    const request = await newRequest();
    expect(await verify(request, await present(request, { tagIssuerAuth: true }))).toEqual({
      status: 'verified',
      credential: 'av',
      facts: { isAdult: true },
    });
  });

  it('verifies a minor and reports age_over_18 false, which the route turns into a failed request', async () => {
    const request = await newRequest();
    const verdict = await verify(request, await present(request, { persona: persona('fr-minor') }));
    expect(verdict).toEqual({ status: 'verified', credential: 'av', facts: { isAdult: false } });
  });

  it('accepts an MSO that starts up to five minutes after the verifier clock, not six', async () => {
    const request = await newRequest();
    const body = await present(request); // validFrom = NOW
    expect(await verify(request, body, { now: NOW - 4 * MINUTE_MS })).toMatchObject({ status: 'verified' });
    refusedBy(await verify(request, body, { now: NOW - 6 * MINUTE_MS }), 'mso_validity');
  });
});

describe('verifyWalletResponse: one refusal per check (design.md §11)', () => {
  it('refuses a device signature over another nonce: device_auth', async () => {
    refusedBy(await tampered('nonce'), 'device_auth');
  });

  it('refuses a device signature over another response_uri: device_auth', async () => {
    refusedBy(await tampered('response-uri'), 'device_auth');
  });

  it('refuses a device signature over another client_id: device_auth', async () => {
    refusedBy(await tampered('client-id'), 'device_auth');
  });

  it('refuses a presentation answering another request (its nonce and transcript): device_auth', async () => {
    const first = await newRequest();
    const second = await newRequest();
    const body = new URLSearchParams(await present(first));
    body.set('state', second.state);
    refusedBy(await verify(second, body), 'device_auth');
  });

  it('refuses a credential from an IACA nobody registered: trust_chain', async () => {
    refusedBy(await tampered('untrusted-issuer'), 'trust_chain');
  });

  it('refuses an expired MSO: mso_validity', async () => {
    refusedBy(await tampered('expired'), 'mso_validity');
  });

  it('refuses an MSO that is not valid yet: mso_validity', async () => {
    refusedBy(await tampered('not-yet-valid'), 'mso_validity');
  });

  it('refuses a disclosed value changed after signing: digests', async () => {
    refusedBy(await tampered('digest'), 'digests');
  });

  it('names age_over_18 in a digest refusal, and an element or namespace it did not ask for only as unexpected_*', async () => {
    expect(await tampered('digest')).toMatchObject({
      detail: 'a disclosed value does not match its digest: eu.europa.ec.av.1/age_over_18',
    });
    expect(await tampered('unsigned-element')).toMatchObject({
      check: 'digests',
      detail: 'a disclosed value does not match its digest: unexpected_element',
    });
    expect(await tampered('unsigned-namespace')).toMatchObject({
      check: 'digests',
      detail: 'the MSO has no digests for unexpected_namespace',
    });
  });

  it('refuses a document whose docType is not eu.europa.ec.av.1: doctype', async () => {
    refusedBy(await tampered('doctype'), 'doctype');
  });

  it('refuses an MSO whose signed docType alone differs: doctype', async () => {
    refusedBy(await tampered('mso-doctype'), 'doctype');
  });

  it('refuses a device signature by a key that is not in the MSO: device_auth', async () => {
    refusedBy(await tampered('device-key'), 'device_auth');
  });

  it("refuses a device key swapped in under the issuer's signature: issuer_signature", async () => {
    refusedBy(await tampered('swap-device-key'), 'issuer_signature');
  });

  it('refuses another state, a missing state and a repeated state: state', async () => {
    refusedBy(await tampered('state'), 'state');
    const request = await newRequest();
    const body = new URLSearchParams(await present(request));
    const withoutState = new URLSearchParams(body);
    withoutState.delete('state');
    refusedBy(await verify(request, withoutState), 'state');
    const twice = new URLSearchParams(body);
    twice.append('state', request.state);
    refusedBy(await verify(request, twice), 'state');
  });

  it('refuses a second post once the first completed the request: request_not_waiting', async () => {
    const request = await newRequest();
    const body = await present(request);
    expect(await verify(request, body)).toMatchObject({ status: 'verified' });
    // The route completed the request with a compare-and-set; it is no longer waiting.
    refusedBy(
      await verify(request, body, { request: { waiting: false, expiresAt: NOW + 5 * MINUTE_MS } }),
      'request_not_waiting',
    );
  });

  it('refuses any post after the request expired: request_expired', async () => {
    const request = await newRequest();
    const body = await present(request);
    refusedBy(await verify(request, body, { request: { waiting: true, expiresAt: NOW } }), 'request_expired');
  });

  it('refuses a DS certificate that has expired: certificate_validity', async () => {
    const issuer = await createIssuerCertificates({
      name: 'Lapsed DS',
      country: 'XX',
      notBefore: new Date(NOW - 400 * 86_400_000),
      notAfter: new Date(NOW + 400 * 86_400_000),
      dsNotAfter: new Date(NOW - 86_400_000),
    });
    const request = await newRequest();
    const body = await present(request, { issuer });
    refusedBy(await verify(request, body, { trust: trustOf(issuer.iaca.toString('pem')) }), 'certificate_validity');
  });

  it('refuses an IACA that has expired, even though it is the trusted root: certificate_validity', async () => {
    const issuer = await createIssuerCertificates({
      name: 'Lapsed IACA',
      country: 'XX',
      notBefore: new Date(NOW - 400 * 86_400_000),
      notAfter: new Date(NOW - 86_400_000),
      dsNotAfter: new Date(NOW + 400 * 86_400_000),
    });
    const request = await newRequest();
    const verdict = await verify(request, await present(request, { issuer }), {
      trust: trustOf(issuer.iaca.toString('pem')),
    });
    expect(verdict).toMatchObject({
      status: 'refused',
      check: 'certificate_validity',
      detail: 'the IACA certificate has expired',
    });
  });
});

describe('verifyWalletResponse: the MSO validity window (ISO/IEC 18013-5 §9.3.1)', () => {
  const DAY_MS = 86_400_000;
  const at = (offsetMs: number) => new Date(NOW + offsetMs);

  async function withValidity(
    validity: PresentOptions['validity'],
    issuer?: Awaited<ReturnType<typeof createIssuerCertificates>>,
  ): Promise<WalletVerdict> {
    const request = await newRequest();
    const body = await present(request, { validity, ...(issuer ? { issuer } : {}) });
    return verify(request, body, issuer ? { trust: trustOf(issuer.iaca.toString('pem')) } : {});
  }

  function refusedAs(verdict: WalletVerdict, detail: string): void {
    expect(verdict).toEqual({
      status: 'refused',
      check: 'mso_validity',
      description: WALLET_CHECKS.mso_validity,
      detail,
    });
  }

  /** An issuer whose DS certificate is valid from `dsNotBefore` to `dsNotAfter` only. */
  async function issuerWithDs(dsNotBefore: Date, dsNotAfter: Date) {
    return createIssuerCertificates({
      name: 'Short DS',
      country: 'XX',
      notBefore: at(-400 * DAY_MS),
      notAfter: at(400 * DAY_MS),
      dsNotBefore,
      dsNotAfter,
    });
  }

  it('refuses a validity window that ends before it starts, even with both ends inside the skew: mso_validity', async () => {
    const inverted = { signed: at(-MINUTE_MS), validFrom: at(2 * MINUTE_MS), validUntil: at(-2 * MINUTE_MS) };
    refusedAs(await withValidity(inverted), 'the MSO validity window ends before it starts');
  });

  it('accepts a window of one instant (validFrom = validUntil = now)', async () => {
    expect(await withValidity({ signed: at(0), validFrom: at(0), validUntil: at(0) })).toMatchObject({
      status: 'verified',
    });
  });

  it('refuses an MSO signed over five minutes after the verifier clock, accepts one signed four after: mso_validity', async () => {
    const window = { validFrom: at(-DAY_MS), validUntil: at(30 * DAY_MS) };
    refusedAs(await withValidity({ ...window, signed: at(6 * MINUTE_MS) }), 'the MSO is signed in the future');
    expect(await withValidity({ ...window, signed: at(4 * MINUTE_MS) })).toMatchObject({ status: 'verified' });
  });

  it('refuses an MSO signed a minute before its DS certificate was valid (inside the library skew): mso_validity', async () => {
    const issuer = await issuerWithDs(at(-DAY_MS), at(365 * DAY_MS));
    const validity = { signed: at(-DAY_MS - MINUTE_MS), validFrom: at(-DAY_MS), validUntil: at(30 * DAY_MS) };
    refusedAs(await withValidity(validity, issuer), 'the MSO was signed outside the DS certificate validity');
    expect(await withValidity({ ...validity, signed: at(-DAY_MS) }, issuer)).toMatchObject({ status: 'verified' });
  });

  it('refuses an MSO signed after its DS certificate expired (the DS still valid now): mso_validity', async () => {
    const issuer = await issuerWithDs(at(-DAY_MS), at(MINUTE_MS));
    const validity = { signed: at(2 * MINUTE_MS), validFrom: at(-DAY_MS), validUntil: at(30 * DAY_MS) };
    refusedAs(await withValidity(validity, issuer), 'the MSO was signed outside the DS certificate validity');
  });
});

describe('verifyWalletResponse: the form itself', () => {
  it('ends as cancelled on error=access_denied with the right state', async () => {
    const request = await newRequest();
    const body = new URLSearchParams({ error: 'access_denied', state: request.state });
    expect(await verify(request, body)).toEqual({ status: 'cancelled', error: 'access_denied' });
  });

  it('refuses error=access_denied with another state: a stranger cannot cancel the request', async () => {
    const request = await newRequest();
    refusedBy(await verify(request, new URLSearchParams({ error: 'access_denied', state: 'guessed' })), 'state');
  });

  it('refuses an error response that also carries a vp_token: vp_token', async () => {
    const request = await newRequest();
    const body = new URLSearchParams(await present(request));
    body.set('error', 'access_denied');
    refusedBy(await verify(request, body), 'vp_token');
  });

  it('refuses a missing vp_token, both encodings at once, another query id or two presentations: vp_token', async () => {
    const request = await newRequest();
    const good = new URLSearchParams(await present(request));
    const token = JSON.parse(good.get('vp_token')!) as { proof_of_age: string[] };
    const presentation = token.proof_of_age[0]!;
    const variants: Record<string, string>[] = [
      {},
      { vp_token: good.get('vp_token')!, 'vp_token[proof_of_age]': presentation },
      { vp_token: JSON.stringify({ other: [presentation] }) },
      { vp_token: JSON.stringify({ proof_of_age: [presentation], extra: [presentation] }) },
      { vp_token: JSON.stringify({ proof_of_age: [presentation, presentation] }) },
      { vp_token: 'not json' },
    ];
    for (const variant of variants) {
      refusedBy(await verify(request, new URLSearchParams({ ...variant, state: request.state })), 'vp_token');
    }
  });

  it('refuses a presentation that is not a DeviceResponse: device_response', async () => {
    const request = await newRequest();
    for (const presentation of ['AAAA', 'not base64url!', Buffer.from('{"a":1}').toString('base64url')]) {
      const body = new URLSearchParams({
        vp_token: JSON.stringify({ proof_of_age: [presentation] }),
        state: request.state,
      });
      refusedBy(await verify(request, body), 'device_response');
    }
  });

  it('names the check and never echoes the credential in a refusal', async () => {
    const request = await newRequest();
    const body = await present(request, { tamper: 'digest' });
    const presentation = (JSON.parse(new URLSearchParams(body).get('vp_token')!) as { proof_of_age: string[] })
      .proof_of_age[0]!;
    const verdict = await verify(request, body);
    const text = JSON.stringify(verdict);
    expect(verdict).toMatchObject({ status: 'refused', check: 'digests' });
    for (let i = 0; i + 24 <= presentation.length; i += 24) expect(text).not.toContain(presentation.slice(i, i + 24));
    expect(text).not.toMatch(/true|false/);
  });
});

describe('verifyWalletResponse: the PID and the mDL, per scope (design.md §13)', () => {
  async function newFor(scopes: WalletScope[]): Promise<WalletRequest> {
    return createWalletRequest({ requestId: 'vr_13', apiUrl: API_URL, scopes });
  }

  async function presented(scopes: WalletScope[], options: Partial<PresentOptions>): Promise<WalletVerdict> {
    const request = await newFor(scopes);
    return verify(request, await present(request, options));
  }

  it("proves isAdult, isFrench and isEU from a French adult's PID", async () => {
    const verdict = await presented(['isAdult', 'isFrench', 'isEU'], {
      persona: persona('fr-adult-f'),
      credential: 'pid',
    });
    expect(verdict).toEqual({
      status: 'verified',
      credential: 'pid',
      facts: { isAdult: true, isFrench: true, isEU: true },
    });
  });

  it("proves isFrench false and isEU true from a German adult's PID", async () => {
    const verdict = await presented(['isFrench', 'isEU'], { persona: persona('de-adult'), credential: 'pid' });
    expect(verdict).toEqual({ status: 'verified', credential: 'pid', facts: { isFrench: false, isEU: true } });
  });

  it('proves isFrench from a PID of two nationalities, French the second', async () => {
    const verdict = await presented(['isFrench', 'isEU'], {
      persona: persona('us-adult'),
      credential: 'pid',
      elements: { nationality: ['US', 'FR'] },
    });
    expect(verdict).toEqual({ status: 'verified', credential: 'pid', facts: { isFrench: true, isEU: true } });
    expect(
      await presented(['isEU'], {
        persona: persona('us-adult'),
        credential: 'pid',
        elements: { nationality: ['US', 'CA'] },
      }),
    ).toMatchObject({ facts: { isEU: false } });
  });

  it("proves the same from a mobile driving licence's single nationality", async () => {
    const verdict = await presented(['isAdult', 'isFrench'], { persona: persona('fr-adult-m'), credential: 'mdl' });
    expect(verdict).toEqual({ status: 'verified', credential: 'mdl', facts: { isAdult: true, isFrench: true } });
  });

  it('verifies an mDL without nationality and leaves isFrench out (the request then fails: claims_missing)', async () => {
    const verdict = await presented(['isAdult', 'isFrench'], {
      persona: persona('fr-adult-m'),
      credential: 'mdl',
      elements: { nationality: undefined },
    });
    expect(verdict).toEqual({ status: 'verified', credential: 'mdl', facts: { isAdult: true } });
  });

  it('refuses a nationality rewritten after the issuer signed it: digests, naming only the element asked', async () => {
    const verdict = await presented(['isFrench'], {
      persona: persona('de-adult'),
      credential: 'pid',
      tamper: 'nationality',
    });
    refusedBy(verdict, 'digests');
    expect(verdict).toMatchObject({
      detail: 'a disclosed value does not match its digest: eu.europa.ec.eudi.pid.1/nationality',
    });
  });

  it('refuses a PID keyed as mdl, and an mDL keyed as pid: doctype', async () => {
    refusedBy(await presented(['isFrench'], { credential: 'pid', tamper: 'credential-id' }), 'doctype');
    refusedBy(await presented(['isFrench'], { credential: 'mdl', tamper: 'credential-id' }), 'doctype');
  });

  it('refuses a proof of age for a nationality request, keyed by an id the link did not ask: vp_token', async () => {
    const request = await newFor(['isFrench']);
    const age = await newFor(['isAdult']);
    const body = new URLSearchParams(await present(age));
    body.set('state', request.state);
    refusedBy(await verify(request, body), 'vp_token');
  });

  it('refuses a requested element of the wrong type, signed by the issuer: elements', async () => {
    refusedBy(await presented(['isFrench'], { credential: 'pid', elements: { nationality: 250 } }), 'elements');
    refusedBy(await presented(['isAdult'], { credential: 'av', elements: { age_over_18: 'yes' } }), 'elements');
    refusedBy(await presented(['isEU'], { credential: 'mdl', elements: { nationality: 'FRA' } }), 'elements');
  });

  it('ignores the elements it did not ask for, even when the wallet discloses them all', async () => {
    const verdict = await presented(['isFrench'], {
      persona: persona('de-adult'),
      credential: 'pid',
      discloseAll: true,
    });
    expect(verdict).toEqual({ status: 'verified', credential: 'pid', facts: { isFrench: false } });
    expect(JSON.stringify(verdict)).not.toMatch(/1981|birth|age_over_18|DE/);
  });
});
