import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/protocol/errors.ts';
import { makeTestApp, type TestApp } from '../test/helpers.ts';

let t: TestApp;
let doc: {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown; requestBody?: unknown; responses: Record<string, { description: string; content?: Record<string, { schema: { properties: { error?: { enum?: string[] } } } }> }> }>>;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
};

beforeAll(async () => {
  t = await makeTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
});
afterAll(async () => t.close());

/** Every error code a path's responses list, with its status. */
function documentedErrors(path: string): Array<[string, string]> {
  return Object.entries(doc.paths[path]!.post!.responses).flatMap(([status, response]) =>
    (response.content?.['application/json']?.schema.properties.error?.enum ?? []).map((code): [string, string] => [status, code]),
  );
}

describe('the OpenAPI document at /docs/json', () => {
  it('is OpenAPI 3.1', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('documents the EUDI wallet endpoints (DESIGN §11) with their OpenID4VP error shape', () => {
    const directPost = doc.paths['/oid4vp/response/{requestId}']!.post!;
    expect(Object.keys((directPost.requestBody as { content: object }).content)).toEqual([
      'application/x-www-form-urlencoded',
    ]);
    expect(Object.keys(directPost.responses).sort()).toEqual(['200', '400']);
    expect(doc.paths['/api/w/wallet-response/{requestId}']!.post!.responses['400']!.description).toMatch(/stays waiting/);
  });

  it('documents exchange and introspection with a request body and the signing headers as security', () => {
    for (const path of ['/v1/exchange', '/v1/introspect']) {
      const operation = doc.paths[path]!.post!;
      expect(operation.requestBody).toBeDefined();
      expect(operation.security).toEqual([{ partnerId: [], partnerTimestamp: [], partnerNonce: [], partnerSignature: [] }]);
    }
    expect(Object.values(doc.components.securitySchemes).map((s) => [s.type, s.in, s.name])).toEqual([
      ['apiKey', 'header', 'X-Partner-ID'],
      ['apiKey', 'header', 'X-Partner-Timestamp'],
      ['apiKey', 'header', 'X-Partner-Nonce'],
      ['apiKey', 'header', 'X-Partner-Signature'],
    ]);
  });

  it('lists every error of the spec\'s exchange table under its catalogue status', () => {
    const errors = documentedErrors('/v1/exchange');
    for (const code of ['MISSING_HEADERS', 'INVALID_PARTNER', 'TIMESTAMP_SKEW', 'INVALID_SIGNATURE', 'REPLAY_DETECTED', 'INVALID_REQUEST', 'INVALID_GRANT', 'GRANT_INVALID', 'INTERNAL_ERROR'] as const) {
      expect(errors).toContainEqual([String(ERRORS[code].status), code]);
    }
  });

  it('lists the introspection errors, and no grant errors there', () => {
    const codes = documentedErrors('/v1/introspect').map(([, code]) => code);
    expect(codes).toEqual(expect.arrayContaining(['INVALID_REQUEST', 'INTERNAL_ERROR', 'INVALID_SIGNATURE']));
    expect(codes).not.toContain('GRANT_INVALID');
  });

  it('hides the sandbox phone, pages, health and the docs themselves', () => {
    const hidden = Object.keys(doc.paths).filter((path) => /^\/(api\/m\/|m\/|demo|docs|healthz|v4\/)/.test(path));
    expect(hidden).toEqual([]);
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    const html = res.statusCode === 302 ? (await t.app.inject({ method: 'GET', url: res.headers.location as string })).body : res.body;
    expect(html).toContain('swagger-ui');
  });
});
