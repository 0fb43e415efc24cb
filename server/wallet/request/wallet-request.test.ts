import {
  parseDcqlVpToken,
  parseOpenid4vpAuthorizationRequest,
  resolveOpenid4vpAuthorizationRequest,
} from '@openid4vc/openid4vp';
import { describe, expect, it } from 'vitest';
import { AV_DCQL_QUERY } from '../profile.ts';
import { createOid4VpSessionTranscript } from '../formats/session-transcript.ts';
import {
  createWalletRequest,
  formatWalletLink,
  parseWalletLink,
  responseUriOf,
  WalletLinkError,
  walletRequestOf,
  type WalletRequestMaterial,
} from './wallet-request.ts';
import { createDirectPost } from '../../sandbox/wallet/sandbox-wallet.ts';
import { API_URL, NOW, persona, sandboxIssuer, sandboxTrust, waiting } from '../test-helpers.ts';
import { verifyWalletResponse } from '../verify.ts';

// The DCQL query exactly as design.md §11 prints it.
const DESIGN_DCQL =
  '{"credentials":[{"id":"proof_of_age","format":"mso_mdoc","meta":{"doctype_value":"eu.europa.ec.av.1"},' +
  '"claims":[{"path":["eu.europa.ec.av.1","age_over_18"]}]}]}';

// design.md §13's DCQL query for isAdult and a nationality scope, the mdl entry written out as the pid's.
/** design.md §13's query for nationality scopes (no isAdult: no claim_sets). */
const DESIGN_13_DCQL =
  '{"credentials":[{"id":"pid","format":"mso_mdoc","meta":{"doctype_value":"eu.europa.ec.eudi.pid.1"},' +
  '"claims":[{"path":["eu.europa.ec.eudi.pid.1","nationality"]}]},' +
  '{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},' +
  '"claims":[{"path":["org.iso.18013.5.1","nationality"]}]},' +
  '{"id":"pid_sd","format":"dc+sd-jwt","meta":{"vct_values":["urn:eudi:pid:1"]},"claims":[{"path":["nationalities"]}]}],' +
  '"credential_sets":[{"options":[["pid"],["mdl"],["pid_sd"]]}]}';

/** With isAdult, design.md §15: the age claim first, the birth date otherwise. */
const adultClaims = (ns: string) =>
  `"claims":[{"id":"age","path":["${ns}","age_over_18"]},{"id":"bd","path":["${ns}","birth_date"]},` +
  `{"id":"nat","path":["${ns}","nationality"]}],"claim_sets":[["age","nat"],["bd","nat"]]`;
const DESIGN_15_DCQL =
  '{"credentials":[{"id":"pid","format":"mso_mdoc","meta":{"doctype_value":"eu.europa.ec.eudi.pid.1"},' +
  adultClaims('eu.europa.ec.eudi.pid.1') +
  '},{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},' +
  adultClaims('org.iso.18013.5.1') +
  // design.md §15: the SD-JWT VC PID after the mdoc PID and the mDL.
  '},{"id":"pid_sd","format":"dc+sd-jwt","meta":{"vct_values":["urn:eudi:pid:1"]},' +
  '"claims":[{"id":"age","path":["age_equal_or_over","18"]},{"id":"bd","path":["birthdate"]},' +
  '{"id":"nat","path":["nationalities"]}],"claim_sets":[["age","nat"],["bd","nat"]]' +
  '}],"credential_sets":[{"options":[["pid"],["mdl"],["pid_sd"]]}]}';

/** design.md §19's vp_formats_supported for both formats. */
const DESIGN_19_FORMATS = {
  mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] },
  'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
};

describe('wallet request', () => {
  it('writes the av:// link in the order and form design.md §11 gives, every value percent-encoded', async () => {
    const request = await createWalletRequest({ requestId: 'vr_abc', apiUrl: 'https://svc.example/' });
    const responseUri = 'https://svc.example/oid4vp/response/vr_abc';
    const e = encodeURIComponent;
    expect(request.responseUri).toBe(responseUri);
    expect(request.clientId).toBe(`redirect_uri:${responseUri}`);
    expect(request.walletLink).toBe(
      'av://?response_type=vp_token&response_mode=direct_post' +
        `&client_id=${e(`redirect_uri:${responseUri}`)}&response_uri=${e(responseUri)}` +
        `&dcql_query=${e(DESIGN_DCQL)}&nonce=${request.nonce}&state=${request.state}`,
    );
    expect(request.walletLink).not.toMatch(/[ "{}]/);
  });

  it('sends the DCQL query of design.md §11 byte for byte', () => {
    expect(JSON.stringify(AV_DCQL_QUERY)).toBe(DESIGN_DCQL);
  });

  it('draws a fresh nonce and state of 256 bits for every request', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => createWalletRequest({ requestId: 'vr_1', apiUrl: API_URL })));
    for (const value of [a!.nonce, a!.state, b!.nonce, b!.state]) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a!.nonce, a!.state, b!.nonce, b!.state]).size).toBe(4);
  });

  it('keeps what the store needs as plain JSON, and a response verifies against the stored copy', async () => {
    const request = await createWalletRequest({ requestId: 'vr_json', apiUrl: API_URL });
    const stored = JSON.parse(JSON.stringify(request.material)) as WalletRequestMaterial;
    expect(stored).toEqual(request.material);
    expect(Object.keys(stored).sort()).toEqual(['dc', 'nonce', 'oid4vpDc', 'responseUri', 'scopes', 'state', 'v']);
    const { body } = await createDirectPost({
      link: request.walletLink,
      issuer: sandboxIssuer,
      persona: persona('de-adult'),
      now: NOW,
    });
    const verdict = await verifyWalletResponse({
      body,
      material: stored,
      trust: sandboxTrust,
      request: waiting(),
      now: NOW,
    });
    expect(verdict).toEqual({ status: 'verified', credential: 'av', facts: { isAdult: true } });
  });

  it('keeps the [isAdult] link of the age-verification app unchanged: its parameters and DCQL, snapshot', async () => {
    const request = await createWalletRequest({ requestId: 'vr_snapshot', apiUrl: 'https://svc.example' });
    const params = parseWalletLink(request.walletLink);
    expect(request.walletLink.startsWith('av://?')).toBe(true);
    expect({ ...params, nonce: '<nonce>', state: '<state>' }).toMatchInlineSnapshot(`
      {
        "client_id": "redirect_uri:https://svc.example/oid4vp/response/vr_snapshot",
        "dcql_query": {
          "credentials": [
            {
              "claims": [
                {
                  "path": [
                    "eu.europa.ec.av.1",
                    "age_over_18",
                  ],
                },
              ],
              "format": "mso_mdoc",
              "id": "proof_of_age",
              "meta": {
                "doctype_value": "eu.europa.ec.av.1",
              },
            },
          ],
        },
        "nonce": "<nonce>",
        "response_mode": "direct_post",
        "response_type": "vp_token",
        "response_uri": "https://svc.example/oid4vp/response/vr_snapshot",
        "state": "<state>",
      }
    `);
    expect([...new URLSearchParams(request.walletLink.slice('av://?'.length)).keys()]).toEqual([
      'response_type',
      'response_mode',
      'client_id',
      'response_uri',
      'dcql_query',
      'nonce',
      'state',
    ]);
    expect(JSON.stringify(params.dcql_query)).toBe(DESIGN_DCQL);
  });

  it('gives every other wallet request an openid4vp:// link with the same parameters and the DCQL of design.md §13 and §15', async () => {
    const request = await createWalletRequest({
      requestId: 'vr_fr',
      apiUrl: 'https://svc.example',
      scopes: ['isAdult', 'isFrench'],
    });
    const responseUri = 'https://svc.example/oid4vp/response/vr_fr';
    const e = encodeURIComponent;
    expect(request.walletLink).toBe(
      'openid4vp://?response_type=vp_token&response_mode=direct_post' +
        `&client_id=${e(`redirect_uri:${responseUri}`)}&response_uri=${e(responseUri)}` +
        `&dcql_query=${e(DESIGN_15_DCQL)}` +
        `&client_metadata=${e(JSON.stringify({ vp_formats_supported: DESIGN_19_FORMATS }))}` +
        `&nonce=${request.nonce}&state=${request.state}`,
    );
  });

  it('asks for age_over_18 or birth_date only when isAdult is asked, and for nationality once for isFrench and isEU', async () => {
    const queryOf = async (scopes: ('isAdult' | 'isFrench' | 'isEU')[]) =>
      JSON.stringify(
        parseWalletLink((await createWalletRequest({ requestId: 'vr_q', apiUrl: API_URL, scopes })).walletLink)
          .dcql_query,
      );
    expect(await queryOf(['isFrench'])).toBe(DESIGN_13_DCQL);
    expect(await queryOf(['isEU', 'isFrench'])).toBe(DESIGN_13_DCQL);
    expect(await queryOf(['isAdult', 'isEU'])).toBe(DESIGN_15_DCQL);
    expect(DESIGN_13_DCQL).not.toMatch(/age_over_18|birth_date|claim_sets/);
  });

  it('asks the same claim_sets over the DC API (openid4vp-v1-unsigned), and the AV profile link stays as it was', async () => {
    const french = await createWalletRequest({ requestId: 'vr_dc', apiUrl: API_URL, scopes: ['isAdult', 'isFrench'] });
    const oid4vp = french.dcRequests[1] as Extract<
      (typeof french.dcRequests)[number],
      { protocol: 'openid4vp-v1-unsigned' }
    >;
    expect(JSON.stringify(oid4vp.data.dcql_query)).toBe(DESIGN_15_DCQL);
    const adult = await createWalletRequest({ requestId: 'vr_dc2', apiUrl: API_URL, scopes: ['isAdult'] });
    const query = (adult.dcRequests[1] as typeof oid4vp).data.dcql_query;
    expect(query.credentials.map((c) => [c.id, c.claim_sets])).toEqual([
      ['proof_of_age', undefined],
      ['pid', [['age'], ['bd']]],
      ['mdl', [['age'], ['bd']]],
      ['pid_sd', [['age'], ['bd']]],
    ]);
    expect(parseWalletLink(adult.walletLink).dcql_query).toEqual({
      credentials: [
        {
          id: 'proof_of_age',
          format: 'mso_mdoc',
          meta: { doctype_value: 'eu.europa.ec.av.1' },
          claims: [{ path: ['eu.europa.ec.av.1', 'age_over_18'] }],
        },
      ],
    });
  });

  it('reads a stored v1 material (no scopes, from before design.md §13) as the [isAdult] request it was', async () => {
    const request = await createWalletRequest({ requestId: 'vr_v1', apiUrl: API_URL });
    const v1: WalletRequestMaterial = { ...request.material, v: 1 };
    delete v1.scopes;
    delete v1.oid4vpDc;
    expect(walletRequestOf(v1).walletLink).toBe(request.walletLink);
    expect(walletRequestOf(v1).dcRequests).toEqual([request.dcRequest]);
  });

  it('refuses request ids and api urls that cannot form a response_uri', () => {
    expect(() => responseUriOf(API_URL, 'a/b')).toThrow();
    expect(() => responseUriOf(API_URL, '')).toThrow();
    expect(() => responseUriOf('ftp://x.example', 'vr_1')).toThrow();
    expect(responseUriOf('http://localhost:8787///', 'vr_1')).toBe('http://localhost:8787/oid4vp/response/vr_1');
  });
});

describe('one credential format on request (design.md §19)', () => {
  type Dc = { protocol: string; data: { dcql_query?: { credentials: { id: string; format: string }[] } } };
  const idsOf = (query: unknown) =>
    (query as { credentials: { id: string; format: string }[] }).credentials.map((c) => `${c.id}:${c.format}`);

  it('asks only mdocs under mso_mdoc: the link, its credential_sets and the DC API requests', async () => {
    const request = await createWalletRequest({
      requestId: 'vr_mdoc',
      apiUrl: API_URL,
      scopes: ['isAdult', 'isFrench'],
      formats: 'mso_mdoc',
    });
    const link = parseWalletLink(request.walletLink);
    expect(idsOf(link.dcql_query)).toEqual(['pid:mso_mdoc', 'mdl:mso_mdoc']);
    expect((link.dcql_query as { credential_sets: unknown }).credential_sets).toEqual([
      { options: [['pid'], ['mdl']] },
    ]);
    expect(link.client_metadata).toEqual({ vp_formats_supported: { mso_mdoc: DESIGN_19_FORMATS.mso_mdoc } });
    const oid4vp = (request.dcRequests as Dc[]).find((r) => r.protocol === 'openid4vp-v1-unsigned')!;
    expect(idsOf(oid4vp.data.dcql_query)).toEqual(['pid:mso_mdoc', 'mdl:mso_mdoc']);
    expect(request.material.formats).toBe('mso_mdoc');
  });

  it('asks exactly one credential, the SD-JWT VC PID, under dc+sd-jwt, over an openid4vp:// link even for [isAdult]', async () => {
    const request = await createWalletRequest({
      requestId: 'vr_sd',
      apiUrl: API_URL,
      scopes: ['isAdult'],
      formats: 'dc+sd-jwt',
    });
    expect(request.walletLink).toMatch(/^openid4vp:\/\/\?/);
    const link = parseWalletLink(request.walletLink);
    expect(link.dcql_query).toEqual({
      credentials: [
        {
          id: 'pid_sd',
          format: 'dc+sd-jwt',
          meta: { vct_values: ['urn:eudi:pid:1'] },
          claims: [
            { id: 'age', path: ['age_equal_or_over', '18'] },
            { id: 'bd', path: ['birthdate'] },
          ],
          claim_sets: [['age'], ['bd']],
        },
      ],
    });
    expect(link.client_metadata).toEqual({ vp_formats_supported: { 'dc+sd-jwt': DESIGN_19_FORMATS['dc+sd-jwt'] } });
    // no org-iso-mdoc request: the DC API asks the SD-JWT VC PID alone too
    expect((request.dcRequests as Dc[]).map((r) => r.protocol)).toEqual(['openid4vp-v1-unsigned']);
    expect(idsOf((request.dcRequests as Dc[])[0]!.data.dcql_query)).toEqual(['pid_sd:dc+sd-jwt']);
  });

  it('keeps the av:// link of [isAdult] byte for byte under all and mso_mdoc, with no client_metadata', async () => {
    for (const formats of ['all', 'mso_mdoc'] as const) {
      const request = await createWalletRequest({ requestId: 'vr_av', apiUrl: API_URL, formats });
      expect(request.walletLink).toMatch(/^av:\/\/\?/);
      expect(request.walletLink).not.toContain('client_metadata');
      expect(JSON.stringify(parseWalletLink(request.walletLink).dcql_query)).toBe(DESIGN_DCQL);
    }
  });

  it('offers nothing that reads as an encryption offer on an unsigned link: no jwks, no enc values, no response_mode jwt', async () => {
    const request = await createWalletRequest({ requestId: 'vr_meta', apiUrl: API_URL, scopes: ['isEU'] });
    const link = parseWalletLink(request.walletLink);
    expect(Object.keys(link.client_metadata!)).toEqual(['vp_formats_supported']);
    expect(link.client_metadata!.vp_formats_supported).toEqual(DESIGN_19_FORMATS);
    expect(link.response_mode).toBe('direct_post');
  });
});

describe('av:// and DCQL round trips', () => {
  it('parses back to the same request with @openid4vc/openid4vp, whose resolver sees the redirect_uri client', async () => {
    const request = await createWalletRequest({ requestId: 'vr_rt', apiUrl: 'https://svc.example' });
    const parsed = parseOpenid4vpAuthorizationRequest({ authorizationRequest: request.walletLink });
    expect(parsed.type).toBe('openid4vp');
    expect(parsed.params).toEqual({
      response_type: 'vp_token',
      response_mode: 'direct_post',
      client_id: request.clientId,
      response_uri: request.responseUri,
      dcql_query: AV_DCQL_QUERY,
      nonce: request.nonce,
      state: request.state,
    });
    const resolved = await resolveOpenid4vpAuthorizationRequest({
      authorizationRequestPayload: parsed.params as Parameters<
        typeof resolveOpenid4vpAuthorizationRequest
      >[0]['authorizationRequestPayload'],
      callbacks: {} as Parameters<typeof resolveOpenid4vpAuthorizationRequest>[0]['callbacks'],
    });
    expect(resolved.client).toMatchObject({
      prefix: 'redirect_uri',
      identifier: request.responseUri,
      effective: request.clientId,
    });
    expect(resolved.dcql?.query).toEqual(AV_DCQL_QUERY);
  });

  it('parses an openid4vp:// link back to the same request with @openid4vc/openid4vp, credential sets included', async () => {
    const request = await createWalletRequest({ requestId: 'vr_rt', apiUrl: 'https://svc.example', scopes: ['isEU'] });
    const parsed = parseOpenid4vpAuthorizationRequest({ authorizationRequest: request.walletLink });
    expect(parsed.params).toMatchObject({ client_id: request.clientId, nonce: request.nonce, state: request.state });
    const resolved = await resolveOpenid4vpAuthorizationRequest({
      authorizationRequestPayload: parsed.params as Parameters<
        typeof resolveOpenid4vpAuthorizationRequest
      >[0]['authorizationRequestPayload'],
      callbacks: {} as Parameters<typeof resolveOpenid4vpAuthorizationRequest>[0]['callbacks'],
    });
    expect(resolved.dcql?.query).toMatchObject({
      credentials: [{ id: 'pid' }, { id: 'mdl' }, { id: 'pid_sd', format: 'dc+sd-jwt' }],
      credential_sets: [{ options: [['pid'], ['mdl'], ['pid_sd']] }],
    });
  });

  it('parses back to the same request with our reader, http sandbox links included', async () => {
    for (const apiUrl of ['https://svc.example', API_URL]) {
      const request = await createWalletRequest({ requestId: 'vr_rt', apiUrl });
      const params = parseWalletLink(request.walletLink);
      expect(formatWalletLink(params)).toBe(request.walletLink);
      expect(params.dcql_query).toEqual(AV_DCQL_QUERY);
    }
  });

  it('reads a vp_token answering the DCQL query back to its one presentation', () => {
    const presentations = parseDcqlVpToken(JSON.stringify({ [AV_DCQL_QUERY.credentials[0]!.id]: ['b64presentation'] }));
    expect(presentations).toEqual({ proof_of_age: ['b64presentation'] });
  });

  it('refuses links a wallet of this profile must not answer', async () => {
    const { walletLink } = await createWalletRequest({ requestId: 'vr_bad', apiUrl: API_URL });
    const swap = (from: string, to: string) => walletLink.replace(from, to);
    const bad = [
      walletLink.replace('av://', 'https://'),
      swap('response_mode=direct_post', 'response_mode=direct_post.jwt'),
      swap('client_id=redirect_uri%3A', 'client_id=x509_san_dns%3A'),
      swap('client_id=redirect_uri%3Ahttp%3A%2F%2Flocalhost', 'client_id=redirect_uri%3Ahttp%3A%2F%2Fevil'),
      `${walletLink}&nonce=again`,
      walletLink.replace(/&state=[^&]*/, ''),
    ];
    for (const link of bad) expect(() => parseWalletLink(link), link).toThrow(WalletLinkError);
  });
});

describe('SessionTranscript', () => {
  it('reproduces the OpenID4VP 1.0 handover test vector (as in mdoc-ts) through our transcript builder', async () => {
    const transcript = await createOid4VpSessionTranscript({
      clientId: 'x509_san_dns:example.com',
      nonce: 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA',
      jwkThumbprint: new Uint8Array(
        Buffer.from('4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047', 'hex'),
      ),
      responseUri: 'https://example.com/response',
    });
    expect(Buffer.from(transcript.encode()).toString('hex')).toBe(
      '83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac',
    );
  });

  it('binds our requests to client_id redirect_uri:<response_uri> with a null jwkThumbprint', async () => {
    const responseUri = 'https://svc.example/oid4vp/response/vr_1';
    const ours = await createOid4VpSessionTranscript({ responseUri, nonce: 'n' });
    const spelledOut = await createOid4VpSessionTranscript({
      responseUri,
      nonce: 'n',
      clientId: `redirect_uri:${responseUri}`,
    });
    const otherNonce = await createOid4VpSessionTranscript({ responseUri, nonce: 'm' });
    expect(Buffer.from(ours.encode())).toEqual(Buffer.from(spelledOut.encode()));
    expect(Buffer.from(ours.encode())).not.toEqual(Buffer.from(otherNonce.encode()));
  });
});
